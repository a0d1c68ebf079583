import { afterAll, describe, expect, test } from "bun:test";
import { freshDatabase, postgresAvailable, sharedPostgres } from "../../../test/support/postgres.ts";
import { storeContract } from "../../../test/store/store_contract.ts";
import { reportOnlyAlertsContract } from "../../../test/store/report_only_alerts_contract.ts";
import { SQL } from "bun";
import { SchemaTooNew } from "../errors.ts";
import { PostgresStore } from "./postgres_store.ts";
import { PG_MIGRATIONS } from "./migrations.ts";

const opened: PostgresStore[] = [];
const open = async (options?: { sweepChunk?: number }) => {
  const store = await PostgresStore.open(await freshDatabase((await sharedPostgres())!), options);
  opened.push(store);
  return store;
};
afterAll(async () => {
  for (const store of opened) await store.close();
});

describe.skipIf(!postgresAvailable())("postgres", () => {
  storeContract("postgres", open);
  reportOnlyAlertsContract("postgres", open);

  test("migrations apply once under concurrent starts (advisory lock)", async () => {
    const url = await freshDatabase((await sharedPostgres())!);
    const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open(url)));
    expect(stores.map((s) => s.applied.length).sort()).toEqual([0, 0, 0, PG_MIGRATIONS.length]);
    const again = await PostgresStore.open(url);
    expect(again.applied).toEqual([]);
    for (const s of [...stores, again]) await s.close();
  });

  test("two stores (two instances) on one database: concurrent identical keys make exactly one run", async () => {
    const url = await freshDatabase((await sharedPostgres())!);
    const [a, b] = await Promise.all([PostgresStore.open(url), PostgresStore.open(url)]);
    await a.insertTrigger({
      config: { id: "x", token: "tok-x", name: "x", createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() } as never,
      secretSealed: null,
      appSecretSealed: null,
    });
    const now = new Date();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const id = Bun.randomUUIDv7();
        const row = {
          id,
          triggerId: "x",
          requestId: crypto.randomUUID(),
          status: "queued" as const,
          trigger: {},
          result: null,
          attempts: 0,
          error: null,
          createdAt: now.toISOString(),
          finishedAt: null,
        };
        const act = {
          id: Bun.randomUUIDv7(),
          triggerId: "x",
          at: now.toISOString(),
          requestId: row.requestId,
          outcome: "run" as const,
          runId: id,
          detail: null,
        };
        // Several keys, each sent many times through both stores, interleaved.
        return (i % 2 ? a : b).commitIngest({ dedup: { keyHash: `k${i % 5}`, windowSeconds: 60 }, run: row, activity: act });
      }),
    );
    expect(results.filter((r) => !r.deduplicated)).toHaveLength(5);
    expect(await a.listRuns({ triggerId: "x", limit: 500, includeTrigger: false })).toHaveLength(5);
    expect(await b.listActivity("x", { limit: 500 })).toHaveLength(200);
    await a.close();
    await b.close();
  });

  test("two instances counting the same refusals share one row per trigger, outcome, minute and reason", async () => {
    const url = await freshDatabase((await sharedPostgres())!);
    const [a, b] = await Promise.all([PostgresStore.open(url), PostgresStore.open(url)]);
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        (i % 2 ? a : b).countActivity({
          id: Bun.randomUUIDv7(),
          triggerId: "x",
          at: new Date(minute + i).toISOString(),
          requestId: crypto.randomUUID(),
          outcome: i % 3 ? "auth_failed" : "rejected",
          runId: null,
          detail: `reason ${i % 4}`,
        }),
      ),
    );
    const rows = await a.listActivity("x", { limit: 500 });
    expect(rows).toHaveLength(8);
    expect(rows.reduce((n, r) => n + r.count!, 0)).toBe(300);
    expect(new Set(rows.map((r) => `${r.outcome} ${r.detail}`)).size).toBe(8);
    await a.close();
    await b.close();
  });

  test("a database migrated by a newer inlet is refused at open", async () => {
    const url = await freshDatabase((await sharedPostgres())!);
    await (await PostgresStore.open(url)).close();
    const raw = new SQL(url, { max: 1 });
    await raw`INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from the future', '2030-01-01')`;
    await raw.close();
    const refused = await PostgresStore.open(url).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SchemaTooNew);
    expect((refused as Error).message).toMatch(
      new RegExp(`^PostgreSQL at postgres://.*schema version 99, newer than this inlet knows \\(${PG_MIGRATIONS.at(-1)!.version}\\)`),
    );
  });

  test("every trigger change, and only a trigger change, is announced to every watcher", async () => {
    const url = await freshDatabase((await sharedPostgres())!);
    const [a, b] = await Promise.all([PostgresStore.open(url), PostgresStore.open(url)]);
    let seen = 0;
    const watch = await b.watchTriggers!(() => seen++);
    // The subscription itself calls once (a reload after every (re)subscription); let it settle.
    await Bun.sleep(300);
    const counted = async (expected: number) => {
      for (let i = 0; i < 200 && seen < expected; i++) await Bun.sleep(10);
      await Bun.sleep(100); // and nothing more arrives
      expect(seen).toBe(expected);
    };
    const settled = seen;
    await a.setMeta("unrelated", "1");
    expect(await a.deleteTrigger("never-there")).toBe(false);
    await counted(settled);
    const stored = {
      config: { id: "w1", token: "tok-w1", name: "w1", createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() } as never,
      secretSealed: null,
      appSecretSealed: null,
    };
    await a.insertTrigger(stored);
    await counted(settled + 1);
    await a.updateTrigger(stored);
    await counted(settled + 2);
    expect(await a.deleteTrigger("w1")).toBe(true);
    await counted(settled + 3);
    await watch.close();
    await a.close();
    await b.close();
  });
});
