import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SealedBox } from "../auth/sealed_box.ts";
import { TokenTaken } from "../store/errors.ts";
import { SqliteStore } from "../store/sqlite/sqlite_store.ts";
import { ManagedByConfig } from "../triggers/managed_by_config.ts";
import { TriggerService } from "../triggers/service.ts";
import { applyConfig } from "./apply_config.ts";
import { formatConfigError, type ConfigResult } from "./config_error.ts";
import { formatPlan } from "./plan.ts";
import { context, needsGeneratedSecret } from "./testdata/context.ts";
import { validateConfig } from "./validate_config.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-apply-config-"));
const stores: SqliteStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** A fresh store and a trigger service on it, as a process would have them. */
function fresh(): { store: SqliteStore; service: TriggerService; another: () => TriggerService } {
  const store = new SqliteStore(join(dir, `inlet-${n++}.db`));
  stores.push(store);
  const box = SealedBox.load(dir, undefined);
  return {
    store,
    service: new TriggerService(store, box, context, needsGeneratedSecret),
    another: () => new TriggerService(store, box, context, needsGeneratedSecret),
  };
}

const value = <T>(result: ConfigResult<T>): T => {
  if (!result.ok) throw new Error(result.errors.map(formatConfigError).join("\n"));
  return result.value;
};
const fileOf = (document: unknown) => value(validateConfig(document, context));
const apply = async (service: TriggerService, document: unknown, dryRun = false) =>
  formatPlan(value(await applyConfig(fileOf(document), service, context, { dryRun })));

const TOKEN_A = "a".repeat(32);
const TOKEN_B = "b".repeat(40);
const SECRET = "supplied-secret-0123456789";

test("applying creates managed triggers with a pinned token and a supplied secret; the same file again changes nothing", async () => {
  const { store, service } = fresh();
  const file = {
    triggers: [
      { name: "orders", token: TOKEN_A, auth: { type: "hmac-sha256", secret: SECRET } },
      { name: "deploys", auth: { type: "bearer" } },
      { name: "github", app: "github" },
    ],
  };
  expect(await apply(service, file)).toEqual(["+ create orders", "+ create deploys", "+ create github"]);
  const byName = Object.fromEntries(service.list().map((t) => [t.name, t]));
  expect([byName.orders.token, byName.orders.secret, byName.orders.managedBy]).toEqual([TOKEN_A, SECRET, "config"]);
  expect(byName.deploys.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(byName.github.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const revision = await store.triggersRevision();
  expect(await apply(service, file)).toEqual(["= unchanged orders", "= unchanged deploys", "= unchanged github"]);
  expect(await store.triggersRevision()).toBe(revision);
  expect(service.list().map((t) => [t.name, t.updatedAt, t.secret])).toEqual(Object.values(byName).map((t) => [t.name, t.updatedAt, t.secret]));
});

test("--dry-run plans and writes nothing", async () => {
  const { store, service } = fresh();
  const revision = await store.triggersRevision();
  expect(await apply(service, { triggers: [{ name: "orders" }] }, true)).toEqual(["+ create orders"]);
  expect(service.list()).toEqual([]);
  expect(await store.triggersRevision()).toBe(revision);
});

test("a trigger made through the API is taken over in place: same id, token and secret; then the API may not change it", async () => {
  const { service } = fresh();
  const made = await service.create({ name: "orders", auth: { type: "bearer" } });
  expect(made.managedBy ?? null).toBeNull();
  expect(await apply(service, { triggers: [{ name: "orders", auth: { type: "bearer" }, filter: { enabled: true, expression: "$.paid == true" } }] })).toEqual([
    "~ update orders (filter, managedBy)",
  ]);
  const taken = service.get(made.id)!;
  expect([taken.token, taken.secret, taken.managedBy, taken.filter.enabled]).toEqual([made.token, made.secret, "config", true]);
  await expect(service.update(made.id, { name: "x" })).rejects.toBeInstanceOf(ManagedByConfig);
  await expect(service.delete(made.id)).rejects.toBeInstanceOf(ManagedByConfig);
  await expect(service.rotate(made.id, { overlapSeconds: 0 })).rejects.toBeInstanceOf(ManagedByConfig);
  expect(service.get(made.id)?.name).toBe("orders");
});

test("a field the file leaves out is its default again: settings are replaced whole", async () => {
  const { service } = fresh();
  await apply(service, {
    triggers: [{ name: "orders", maxBodyBytes: 2048, sources: { allow: ["10.0.0.0/8"] }, redaction: { enabled: true, patterns: ["card"] } }],
  });
  expect(await apply(service, { triggers: [{ name: "orders" }] })).toEqual(["~ update orders (redaction, maxBodyBytes, sources)"]);
  const [orders] = service.list();
  expect([orders.maxBodyBytes, orders.sources, orders.redaction.enabled]).toEqual([undefined, undefined, false]);
});

test("a supplied secret changed in the file rotates at once; a new auth type generates a new secret", async () => {
  const { service } = fresh();
  await apply(service, { triggers: [{ name: "orders", auth: { type: "bearer", secret: SECRET } }] });
  const next = "the-next-supplied-secret-42";
  expect(await apply(service, { triggers: [{ name: "orders", auth: { type: "bearer", secret: next } }] })).toEqual(["~ update orders (auth.secret)"]);
  let [orders] = service.list();
  expect([orders.secret, orders.previous]).toEqual([next, null]);
  // Left out, the secret is kept...
  expect(await apply(service, { triggers: [{ name: "orders", auth: { type: "bearer" } }] })).toEqual(["= unchanged orders"]);
  // ...until the type changes.
  expect(await apply(service, { triggers: [{ name: "orders", auth: { type: "hmac-sha256" } }] })).toEqual(["~ update orders (auth)"]);
  [orders] = service.list();
  expect(orders.secret).not.toBe(next);
  expect(orders.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
});

test("prune deletes the config's triggers the file no longer names, never the API's", async () => {
  const { service } = fresh();
  await service.create({ name: "by-hand" });
  await apply(service, { triggers: [{ name: "orders" }, { name: "legacy" }] });
  expect(await apply(service, { triggers: [{ name: "orders" }] })).toEqual(["= unchanged orders"]);
  expect(await apply(service, { triggers: [{ name: "orders" }], prune: true })).toEqual(["= unchanged orders", "- delete legacy"]);
  expect(
    service
      .list()
      .map((t) => t.name)
      .sort(),
  ).toEqual(["by-hand", "orders"]);
});

test("two triggers swap their pinned tokens in one apply", async () => {
  const { service } = fresh();
  await apply(service, {
    triggers: [
      { name: "one", token: TOKEN_A },
      { name: "two", token: TOKEN_B },
    ],
  });
  expect(
    await apply(service, {
      triggers: [
        { name: "one", token: TOKEN_B },
        { name: "two", token: TOKEN_A },
      ],
    }),
  ).toEqual(["~ update one (token)", "~ update two (token)"]);
  expect(Object.fromEntries(service.list().map((t) => [t.name, t.token]))).toEqual({ one: TOKEN_B, two: TOKEN_A });
  expect([service.findByToken(TOKEN_A)?.name, service.findByToken(TOKEN_B)?.name]).toEqual(["two", "one"]);
});

test("two processes applying the same file at once create each trigger once: the later plans again and finds it unchanged", async () => {
  const { service, another } = fresh();
  const other = another();
  const file = { triggers: [{ name: "orders" }, { name: "deploys", auth: { type: "bearer" } }] };
  const plans = await Promise.all([apply(service, file), apply(other, file)]);
  expect(plans.sort()).toEqual([
    ["+ create orders", "+ create deploys"],
    ["= unchanged orders", "= unchanged deploys"],
  ]);
  await other.refresh();
  expect(
    other
      .list()
      .map((t) => t.name)
      .sort(),
  ).toEqual(["deploys", "orders"]);
});

test("a token the store finds taken while writing changes nothing, and is an error naming the trigger", async () => {
  const { store, service } = fresh();
  await apply(service, { triggers: [{ name: "keep" }, { name: "gone" }] });
  const keep = service.list().find((t) => t.name === "keep")!;
  const gone = service.list().find((t) => t.name === "gone")!;
  const { revision } = await service.snapshot();
  // A plan the planner would refuse (it checks tokens): as if another process took the token meanwhile without the revision moving.
  const settings = fileOf({ triggers: [{ name: "thief" }] }).triggers[0];
  const attempt = service.apply(
    {
      steps: [
        { action: "delete", current: gone },
        { action: "create", desired: { ...settings, token: keep.token } },
      ],
    },
    revision,
  );
  await expect(attempt).rejects.toBeInstanceOf(TokenTaken);
  expect(
    service
      .list()
      .map((t) => t.name)
      .sort(),
  ).toEqual(["gone", "keep"]);
  expect(await store.triggersRevision()).toBe(revision);

  const failing = { snapshot: () => service.snapshot(), apply: () => Promise.reject(new TokenTaken("orders")) };
  const result = await applyConfig(fileOf({ triggers: [{ name: "orders" }] }), failing, context);
  expect(result.ok ? [] : result.errors.map(formatConfigError)).toEqual([
    "orders: /token: is already another trigger's token (taken while applying): nothing was changed",
  ]);
});

test("a store that keeps changing under the apply gives up after a few rounds, having changed nothing", async () => {
  const { service } = fresh();
  let rounds = 0;
  const busy = { snapshot: () => service.snapshot(), apply: async () => (rounds++, "stale" as const) };
  const result = await applyConfig(fileOf({ triggers: [{ name: "orders" }] }), busy, context);
  expect(rounds).toBe(5);
  expect(result.ok ? [] : result.errors.map((e) => e.code)).toEqual(["changed_meanwhile"]);
});
