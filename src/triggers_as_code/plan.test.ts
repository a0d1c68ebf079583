import { expect, test } from "bun:test";
import type { TriggerRecord } from "../records/trigger.ts";
import { normalizeTrigger } from "../triggers/normalize.ts";
import { formatConfigError } from "./config_error.ts";
import { formatPlan, planConfig } from "./plan.ts";
import { context, needsGeneratedSecret } from "./testdata/context.ts";
import { validateConfig } from "./validate_config.ts";

const managed = { managedBy: "config" } as Partial<TriggerRecord>;
const byApi = { managedBy: null } as Partial<TriggerRecord>;

let made = 0;
/** A stored trigger as the trigger service makes it from a TriggerInput (managed by the config unless `extra` says otherwise). */
function stored(input: Record<string, unknown>, extra: Partial<TriggerRecord> = managed): TriggerRecord {
  const { appSecret, ...rest } = input;
  const settings = normalizeTrigger(rest, context);
  made++;
  return {
    id: `01900000-0000-7000-8000-${String(made).padStart(12, "0")}`,
    token: `stored_token_${made}`.padEnd(32, "x"),
    ...settings,
    createdAt: "2026-03-01T12:00:00.000Z",
    updatedAt: "2026-03-01T12:00:00.000Z",
    secret: needsGeneratedSecret(settings) ? `generated_secret_${made}`.padEnd(43, "g") : null,
    appSecret: (appSecret as string | undefined) ?? null,
    previous: null,
    ...extra,
  };
}
function plan(file: unknown, current: TriggerRecord[]) {
  const config = validateConfig(file, context);
  if (!config.ok) throw new Error(config.errors.map(formatConfigError).join("\n"));
  return planConfig(config.value, current, context);
}
function lines(file: unknown, current: TriggerRecord[]) {
  const result = plan(file, current);
  if (!result.ok) throw new Error(result.errors.map(formatConfigError).join("\n"));
  return formatPlan(result.value);
}
function errors(file: unknown, current: TriggerRecord[]) {
  const result = plan(file, current);
  return result.ok ? [] : result.errors.map(formatConfigError);
}

test("create, update with the fields that change, unchanged, and prune deletes only triggers the config manages", () => {
  const current = [
    stored({ name: "orders", auth: { type: "bearer" } }, managed),
    stored({ name: "billing" }, managed),
    stored({ name: "legacy" }, managed),
    stored({ name: "made-by-hand", auth: { type: "bearer" } }, byApi),
    stored({ name: "taken-over", methods: ["GET", "POST"] }, byApi),
  ];
  const file = {
    triggers: [
      { name: "orders", auth: { type: "hmac-sha256" }, filter: { enabled: true, expression: '$.type == "paid"' } },
      { name: "billing" },
      { name: "taken-over", methods: ["POST", "GET"] },
      { name: "new" },
    ],
  };
  expect(lines(file, current)).toEqual(["~ update orders (auth, filter)", "= unchanged billing", "~ update taken-over (managedBy)", "+ create new"]);
  expect(lines({ ...file, prune: true }, current)).toEqual([
    "~ update orders (auth, filter)",
    "= unchanged billing",
    "~ update taken-over (managedBy)",
    "+ create new",
    "- delete legacy",
  ]);
  const result = plan(file, current);
  expect(result.ok && result.value.steps.map((s) => s.action)).toEqual(["update", "unchanged", "update", "create"]);
});

test("a field the file leaves out is its default, not what the trigger had", () => {
  const current = [
    stored({ name: "orders", redaction: { enabled: true, patterns: ["email"] }, maxBodyBytes: 5000, alerts: [{ kind: "silence", seconds: 3600 }] }),
  ];
  expect(lines({ triggers: [{ name: "orders" }] }, current)).toEqual(["~ update orders (redaction, maxBodyBytes, alerts)"]);
});

test("a trigger saved before a field existed, or before managedBy did, compares by its normalized settings", () => {
  const { schema: _, ...old } = stored({ name: "old" });
  const { managedBy: __, ...unmarked } = stored({ name: "unmarked" }) as TriggerRecord & { managedBy?: unknown };
  expect(lines({ triggers: [{ name: "old" }, { name: "unmarked" }] }, [{ ...old, managedBy: "config" } as TriggerRecord, unmarked])).toEqual([
    "= unchanged old",
    "~ update unmarked (managedBy)",
  ]);
  // Missing managedBy is null: never pruned.
  expect(lines({ triggers: [], prune: true }, [unmarked])).toEqual([]);
});

test("a supplied secret, token or appSecret that differs is a change named by its field, never shown", () => {
  const orders = stored({ name: "orders", auth: { type: "bearer" } });
  const github = stored({ name: "github", app: "github", appSecret: "the-old-app-secret" });
  const same = {
    triggers: [
      { name: "orders", auth: { type: "bearer", secret: orders.secret }, token: orders.token },
      { name: "github", app: "github", appSecret: "the-old-app-secret" },
    ],
  };
  expect(lines(same, [orders, github])).toEqual(["= unchanged orders", "= unchanged github"]);
  const newSecret = "a-brand-new-secret-0123456789";
  const newToken = "a_brand_new_token_0123456789abcdef";
  const changed = {
    triggers: [
      { name: "orders", auth: { type: "bearer", secret: newSecret }, token: newToken },
      { name: "github", app: "github", appSecret: "the-new-app-secret" },
    ],
  };
  const printed = lines(changed, [orders, github]);
  expect(printed).toEqual(["~ update orders (auth.secret, token)", "~ update github (appSecret)"]);
  for (const value of [newSecret, newToken, "the-new-app-secret", orders.secret!, orders.token, "the-old-app-secret"])
    expect(printed.join("\n")).not.toContain(value);
  // Leaving them out keeps what the trigger has.
  expect(
    lines(
      {
        triggers: [
          { name: "orders", auth: { type: "bearer" } },
          { name: "github", app: "github" },
        ],
      },
      [orders, github],
    ),
  ).toEqual(["= unchanged orders", "= unchanged github"]);
});

test("changes says whether applying would change anything", () => {
  const current = [stored({ name: "orders" })];
  const unchanged = plan({ triggers: [{ name: "orders" }] }, current);
  const pruning = plan({ triggers: [], prune: true }, current);
  expect([unchanged.ok && unchanged.value.changes, pruning.ok && pruning.value.changes]).toEqual([false, true]);
});

test("refused before anything is written: a name two triggers share, a changed app, a pinned token another trigger keeps", () => {
  const twins = [stored({ name: "orders" }, byApi), stored({ name: "orders" }, byApi)];
  expect(errors({ triggers: [{ name: "orders" }] }, twins)).toEqual([
    `orders: 2 triggers have this name (ids ${twins[0].id}, ${twins[1].id}): rename or delete all but one through the API first`,
  ]);
  expect(errors({ triggers: [{ name: "hooks", app: "gitlab" }] }, [stored({ name: "hooks", app: "github" })])).toEqual([
    'hooks: /app: a trigger\'s app cannot be changed (it is "github"): give the trigger a new name, or delete the old one first',
  ]);
  const holder = stored({ name: "billing" });
  const message = ['orders: /token: is the token of the trigger "billing", which keeps it: pin another one'];
  expect(errors({ triggers: [{ name: "orders", token: holder.token }] }, [holder])).toEqual(message);
  expect(errors({ triggers: [{ name: "orders", token: holder.token }, { name: "billing" }] }, [holder])).toEqual(message);
  expect(errors({ triggers: [{ name: "orders", token: holder.token }] }, [{ ...holder, managedBy: null } as TriggerRecord]).join()).not.toContain(holder.token);
  // Not when the holder is pruned, or moves to a token of its own.
  expect(lines({ triggers: [{ name: "orders", token: holder.token }], prune: true }, [holder])).toEqual(["+ create orders", "- delete billing"]);
  expect(
    lines(
      {
        triggers: [
          { name: "orders", token: holder.token },
          { name: "billing", token: "b".repeat(32) },
        ],
      },
      [holder],
    ),
  ).toEqual(["+ create orders", "~ update billing (token)"]);
});
