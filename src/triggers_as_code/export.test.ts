import { expect, test } from "bun:test";
import type { TriggerRecord } from "../records/trigger.ts";
import { normalizeTrigger } from "../triggers/normalize.ts";
import { formatConfigError } from "./config_error.ts";
import { exportTriggers } from "./export.ts";
import { exportVariables, secretVariables } from "./placeholders.ts";
import { context, needsGeneratedSecret } from "./testdata/context.ts";

let made = 0;
/** A stored trigger as the trigger service makes it from a TriggerInput. */
function stored(input: Record<string, unknown>): TriggerRecord {
  const { appSecret, ...rest } = input;
  const settings = normalizeTrigger(rest, context);
  made++;
  return {
    id: `01900000-0000-7000-8000-${String(made).padStart(12, "0")}`,
    token: `stored_token_${made}`.padEnd(32, "x"),
    ...settings,
    createdAt: `2026-03-01T12:00:${String(made).padStart(2, "0")}.000Z`,
    updatedAt: `2026-03-01T12:00:${String(made).padStart(2, "0")}.000Z`,
    secret: needsGeneratedSecret(settings) ? `generated_secret_${made}`.padEnd(43, "g") : null,
    appSecret: (appSecret as string | undefined) ?? null,
    previous: null,
  };
}
function exported(records: TriggerRecord[], format: "yaml" | "json" = "yaml") {
  const result = exportTriggers(records, context, format);
  if (!result.ok) throw new Error(result.errors.map(formatConfigError).join("\n"));
  return result.value;
}

test("placeholder names: the trigger's name upper-cased, every character but A–Z and 0–9 as _", () => {
  expect(secretVariables("orders")).toEqual({ token: "INLET_ORDERS_TOKEN", secret: "INLET_ORDERS_SECRET", appSecret: "INLET_ORDERS_APP_SECRET" });
  expect(secretVariables("Deploys (prod) 2").token).toBe("INLET_DEPLOYS__PROD__2_TOKEN");
  expect(secretVariables("café").secret).toBe("INLET_CAF__SECRET");
});

test("YAML by default: each trigger as the shortest TriggerInput that gives its settings, oldest first, token and secrets as placeholders", () => {
  const orders = stored({ name: "orders", auth: { type: "bearer" } });
  const github = stored({ name: "github", app: "github", appSecret: "pasted-provider-secret" });
  const open = stored({ name: "open", methods: ["GET", "POST"], dedup: { strategy: "payload-hash" } });
  expect(exported([open, github, orders].sort((a, b) => (a.name < b.name ? -1 : 1)))).toBe(
    [
      "# inlet triggers as code: the format is in docs/config-file.md.",
      "# Tokens and secrets are ${INLET_…} placeholders: set those environment variables to apply it.",
      "triggers:",
      "  - name: orders",
      '    token: "${INLET_ORDERS_TOKEN}"',
      "    auth:",
      "      type: bearer",
      '      secret: "${INLET_ORDERS_SECRET}"',
      "  - name: github",
      "    app: github",
      '    token: "${INLET_GITHUB_TOKEN}"',
      '    appSecret: "${INLET_GITHUB_APP_SECRET}"',
      "    auth:",
      '      secret: "${INLET_GITHUB_SECRET}"',
      "  - name: open",
      '    token: "${INLET_OPEN_TOKEN}"',
      "    methods:",
      "      - GET",
      "      - POST",
      "    dedup:",
      "      strategy: payload-hash",
      "",
    ].join("\n"),
  );
});

test("JSON when asked; never a token, secret or appSecret value", () => {
  const records = [stored({ name: "orders", auth: { type: "hmac-sha512" } }), stored({ name: "stripe", app: "stripe", appSecret: "whsec_provider_secret" })];
  const json = exported(records, "json");
  expect(JSON.parse(json)).toEqual({
    triggers: [
      { name: "orders", token: "${INLET_ORDERS_TOKEN}", auth: { type: "hmac-sha512", secret: "${INLET_ORDERS_SECRET}" } },
      { name: "stripe", app: "stripe", token: "${INLET_STRIPE_TOKEN}", appSecret: "${INLET_STRIPE_APP_SECRET}" },
    ],
  });
  for (const text of [json, exported(records)])
    for (const value of [records[0].token, records[0].secret!, records[1].token, "whsec_provider_secret"]) expect(text).not.toContain(value);
});

test("text that holds ${ is written $${, so applying the export gives the text back", () => {
  const script = stored({ name: "s", workflow: { kind: "script", source: "export default (t) => ({ body: `${t.body.id} $${x}` })" } });
  expect(exported([script])).toContain('source: "export default (t) => ({ body: `$${t.body.id} $$${x}` })"');
});

test("two triggers whose names make the same placeholders: an error naming both, for the export and its variables", () => {
  const records = [stored({ name: "orders-eu" }), stored({ name: "orders_eu" })];
  const expected = [`orders_eu: its secrets would be exported as INLET_ORDERS_EU_… like those of "orders-eu" (${records[0].id}): rename one of the two`];
  const result = exportTriggers(records, context);
  expect(result.ok ? [] : result.errors.map(formatConfigError)).toEqual(expected);
  const variables = exportVariables(records);
  expect(variables.ok ? [] : variables.errors.map(formatConfigError)).toEqual(expected);
});

test("the variables an export needs, with the records' values", () => {
  const records = [
    stored({ name: "orders", auth: { type: "bearer" } }),
    stored({ name: "github", app: "github", appSecret: "pasted" }),
    stored({ name: "open" }),
  ];
  expect(exportVariables(records)).toEqual({
    ok: true,
    value: {
      INLET_ORDERS_TOKEN: records[0].token,
      INLET_ORDERS_SECRET: records[0].secret!,
      INLET_GITHUB_TOKEN: records[1].token,
      INLET_GITHUB_SECRET: records[1].secret!,
      INLET_GITHUB_APP_SECRET: "pasted",
      INLET_OPEN_TOKEN: records[2].token,
    },
  });
});
