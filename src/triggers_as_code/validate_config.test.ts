import { expect, test } from "bun:test";
import { normalizeTrigger } from "../triggers/normalize.ts";
import { ValidationError } from "../triggers/validation_error.ts";
import { formatConfigError } from "./config_error.ts";
import { substitute } from "./substitute.ts";
import { context } from "./testdata/context.ts";
import { validateConfig } from "./validate_config.ts";

const TOKEN = "tok_0123456789abcdefghijABCDEFGHIJ-_";
const SECRET = "a-supplied-secret-0123";

function errors(document: unknown, substitutedPaths: string[] = []) {
  const result = validateConfig(document, context, substitutedPaths);
  return result.ok ? [] : result.errors.map(formatConfigError);
}
function valid(document: unknown) {
  const result = validateConfig(document, context);
  if (!result.ok) throw new Error(result.errors.map(formatConfigError).join("\n"));
  return result.value;
}
/** What the API answers for the same TriggerInput. */
function apiDetails(input: unknown) {
  try {
    normalizeTrigger(input, context);
  } catch (error) {
    if (error instanceof ValidationError) return error.details;
    throw error;
  }
  return [];
}

test("a valid file: each trigger normalized as the API creates it, with its pinned token and supplied secrets apart", () => {
  const config = valid({
    triggers: [
      { name: "orders", token: TOKEN, auth: { type: "hmac-sha256", secret: SECRET }, filter: { enabled: true, expression: '$.type == "order.paid"' } },
      { name: "github", app: "github", appSecret: "provider-given" },
    ],
    prune: true,
  });
  expect(config.prune).toBe(true);
  expect(config.triggers.map(({ name, index, token, secret, appSecret }) => ({ name, index, token, secret, appSecret }))).toEqual([
    { name: "orders", index: 0, token: TOKEN, secret: SECRET, appSecret: undefined },
    { name: "github", index: 1, token: undefined, secret: undefined, appSecret: "provider-given" },
  ]);
  expect(config.triggers[0].settings).toEqual(
    normalizeTrigger({ name: "orders", auth: { type: "hmac-sha256" }, filter: { enabled: true, expression: '$.type == "order.paid"' } }, context),
  );
  expect(config.triggers[0].input).toEqual({ name: "orders", auth: { type: "hmac-sha256" }, filter: { enabled: true, expression: '$.type == "order.paid"' } });
  expect(valid({ triggers: [] })).toEqual({ triggers: [], prune: false });
});

test("the file's own shape: a mapping of triggers and prune, nothing else", () => {
  expect(errors([{ name: "orders" }])).toEqual(["the file must be a mapping with a list of triggers, e.g. triggers: [{ name: orders }]"]);
  expect(errors(null)).toEqual(["the file must be a mapping with a list of triggers, e.g. triggers: [{ name: orders }]"]);
  expect(errors({ trigger: [], prune: "yes" })).toEqual([
    "/trigger: is not a known field (a config file has triggers and prune)",
    "/prune: must be true or false",
    "/triggers: is required: a list of triggers ([] for none)",
  ]);
  expect(errors({ triggers: { name: "orders" } })).toEqual(["/triggers: must be a list of triggers"]);
  expect(errors({ triggers: ["orders", { auth: { type: "bearer" } }] })).toEqual([
    "triggers[0]: must be a mapping with at least a name",
    "triggers[1]: /name: is required",
  ]);
});

test("every trigger is checked by the API's own rules, and every error has the trigger's name and the field's path", () => {
  const badFilter = { name: "paid", filter: { enabled: true, expression: '$.type = "order.paid"' } };
  const [detail] = apiDetails(badFilter);
  expect(detail.path).toBe("/filter/expression");
  expect(errors({ triggers: [badFilter] })).toEqual([`paid: /filter/expression: ${detail.message}`]);
  expect(
    errors({
      triggers: [
        { name: "ok" },
        { name: "get-only", methods: ["GET"], auth: { type: "hmac-sha256" } },
        { name: "hooks", app: "gitlabb" },
        { name: "plain", appSecret: "x", dedup: { strategy: "expression", expression: "data.id" }, extra: 1 },
      ],
    }),
  ).toEqual([
    ...apiDetails({ name: "get-only", methods: ["GET"], auth: { type: "hmac-sha256" } }).map((d) => `get-only: ${d.path}: ${d.message}`),
    ...apiDetails({ name: "hooks", app: "gitlabb" }).map((d) => `hooks: ${d.path}: ${d.message}`),
    ...apiDetails({ name: "plain", appSecret: "x", dedup: { strategy: "expression", expression: "data.id" }, extra: 1 }).map(
      (d) => `plain: ${d.path}: ${d.message}`,
    ),
  ]);
  expect(errors({ triggers: [{ name: "get-only", methods: ["GET"], auth: { type: "hmac-sha256" } }] })[0]).toStartWith(
    "get-only: /auth/type: HMAC types need a body to sign",
  );
});

test("a pinned token is 32–128 characters of A–Z a–z 0–9 _ - and unique in the file", () => {
  expect(
    errors({
      triggers: [
        { name: "a", token: "short" },
        { name: "b", token: `${"x".repeat(31)}!` },
        { name: "c", token: "y".repeat(129) },
        { name: "d", token: 42 },
      ],
    }),
  ).toEqual([
    "a: /token: must be 32 to 128 characters of A–Z, a–z, 0–9, _ and - (it has 5)",
    "b: /token: must be 32 to 128 characters of A–Z, a–z, 0–9, _ and - (it has 32)",
    "c: /token: must be 32 to 128 characters of A–Z, a–z, 0–9, _ and - (it has 129)",
    "d: /token: must be 32 to 128 characters of A–Z, a–z, 0–9, _ and -",
  ]);
  expect(
    valid({
      triggers: [
        { name: "a", token: "A".repeat(32) },
        { name: "b", token: "b".repeat(128) },
      ],
    }).triggers.map((t) => t.token?.length),
  ).toEqual([32, 128]);
  expect(
    errors({
      triggers: [
        { name: "a", token: TOKEN },
        { name: "b", token: TOKEN },
      ],
    }),
  ).toEqual(["b: /token: is also the token of a in this file: each trigger needs its own"]);
});

test("a supplied secret is at least 16 characters, only where inlet would generate one", () => {
  expect(errors({ triggers: [{ name: "orders", auth: { type: "bearer", secret: "too-short" } }] })).toEqual([
    "orders: /auth/secret: must be at least 16 characters (it has 9)",
  ]);
  expect(errors({ triggers: [{ name: "orders", auth: { type: "bearer", secret: `${SECRET}\n` } }] })).toEqual([
    "orders: /auth/secret: holds a control character (a line break left in its file?)",
  ]);
  expect(errors({ triggers: [{ name: "open", auth: { secret: SECRET } }] })).toEqual([
    'open: /auth/secret: auth type "none" has no secret: leave auth.secret out, or choose a type that has one',
  ]);
  expect(
    errors({ triggers: [{ name: "keyed", auth: { type: "jwt", jwt: { algorithms: ["RS256"], jwksUrl: "https://id.example/jwks" }, secret: SECRET } }] }),
  ).toEqual(['keyed: /auth/secret: auth type "jwt" with these settings verifies with a public key, not a secret: leave auth.secret out']);
  expect(errors({ triggers: [{ name: "stripe", app: "stripe", auth: { secret: SECRET } }] })).toEqual([
    "stripe: /auth/secret: the stripe app's secret is not one inlet generates: give the provider's secret as appSecret",
  ]);
  // Every generic mode with a secret, and an app whose plugin generates one (GitHub), takes one.
  for (const type of ["bearer", "header", "basic", "hmac-sha256", "hmac-sha512", "jwt"])
    expect(valid({ triggers: [{ name: type, auth: { type, secret: SECRET } }] }).triggers[0].secret).toBe(SECRET);
  expect(valid({ triggers: [{ name: "gh", app: "github", auth: { secret: SECRET } }] }).triggers[0].secret).toBe(SECRET);
  expect(errors({ triggers: [{ name: "gh", app: "github", appSecret: "" }] })).toEqual(["gh: /appSecret: is empty: leave appSecret out when there is none"]);
});

test("names are unique in the file", () => {
  expect(errors({ triggers: [{ name: "orders" }, { name: "billing" }, { name: "orders" }] })).toEqual([
    "orders: /name: is also the name of triggers[0]: the name identifies a trigger, so each must be unique",
  ]);
});

test("no error message carries a secret, a token, an appSecret or a value that came from a placeholder", () => {
  const secrets = { APP: "custom-plugin-name", TOKEN: "t".repeat(20), SECRET: "short-secret", APP_SECRET: "sk_live_provider_secret" };
  const document = {
    triggers: [
      { name: "orders", app: "${APP}", token: "${TOKEN}", auth: { type: "bearer", secret: "${SECRET}" } },
      { name: "plain", appSecret: "${APP_SECRET}", sources: { allow: ["${APP_SECRET}"] } },
      { name: "literal", token: "sk_live_written_in_the_file!", auth: { type: "bearer", secret: "0123456789abcdef\u0000" } },
    ],
  };
  const result = substitute(document, { env: secrets });
  if (!result.ok) throw new Error("substitution failed");
  const messages = errors(result.value.document, result.value.substitutedPaths);
  expect(messages.length).toBeGreaterThanOrEqual(6);
  for (const value of [...Object.values(secrets), "sk_live_written_in_the_file!", "0123456789abcdef"])
    for (const message of messages) expect(message).not.toContain(value);
  // What would have echoed one says where instead.
  expect(messages).toContain('orders: /app: no plugin "***" is loaded (loaded: ' + context.plugins.ids().join(", ") + ")");
});

test("a report window already over is accepted in a file (it enforces), where the API asks for a date in the future", () => {
  const past = { name: "reporter", auth: { type: "bearer", mode: "report", reportUntil: "2026-01-01T00:00:00Z" } };
  expect(errors({ triggers: [past] })).toEqual([]);
  expect(apiDetails(past).map((d) => d.path)).toEqual(["/auth/reportUntil"]);
  // Still at most 30 days ahead, and a date with its offset.
  const far = { ...past, auth: { ...past.auth, reportUntil: new Date(Date.now() + 40 * 86_400_000).toISOString() } };
  expect(errors({ triggers: [far] })).toHaveLength(1);
  expect(errors({ triggers: [{ ...past, auth: { ...past.auth, reportUntil: "2026-01-01" } }] })).toHaveLength(1);
});
