import { afterAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { PostgresStore } from "../../src/store/postgres/postgres_store.ts";
import { RunQueue } from "../../src/runs/queue.ts";
import type { ActivityRecord } from "../../src/records/activity.ts";
import type { AlertRecord } from "../../src/records/alert.ts";
import type { ClaimedRun, RunRecord } from "../../src/records/run.ts";
import type { Store } from "../../src/store/store.ts";
import { triggerRecord } from "../support/ingest.ts";
import { dropDatabase, waitFor } from "../support/instances.ts";
import { freshDatabase, postgresAvailable, sharedPostgres } from "../support/postgres.ts";

/**
 * Two stores on one database are two instances, seen at the store: the races that several
 * `inlet serve` processes run into (docs/store.md#sqlite-and-postgresql,
 * docs/store.md#ordering-in-the-queue, docs/store.md#alerts-in-the-store), made at once and
 * checked row by row, without the HTTP layer in between.
 */

const opened: PostgresStore[] = [];
const databases: string[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
  for (const url of databases) await dropDatabase(url).catch(() => {});
});

/** Two instances' stores on a new database (and its URL), with trigger `t` in it. */
async function twoInstances(): Promise<[PostgresStore, PostgresStore, string]> {
  const url = await freshDatabase((await sharedPostgres())!, "inlet_shared");
  databases.push(url);
  const stores = await Promise.all([PostgresStore.open(url), PostgresStore.open(url)]);
  opened.push(...stores);
  const at = new Date().toISOString();
  await stores[0].insertTrigger({
    config: { id: "t", token: "tok-t", name: "t", createdAt: at, updatedAt: at } as never,
    secretSealed: null,
    appSecretSealed: null,
  });
  return [stores[0], stores[1], url];
}

const newRun = (at: Date, extra: Partial<RunRecord> = {}): RunRecord & { trigger: unknown } => ({
  id: Bun.randomUUIDv7(),
  triggerId: "t",
  requestId: crypto.randomUUID(),
  status: "queued",
  trigger: { body: {} },
  result: null,
  attempts: 0,
  error: null,
  createdAt: at.toISOString(),
  finishedAt: null,
  ...extra,
});

/** Commits a run (and its Activity row) the way the pipeline does; resolves with whether it was a duplicate. */
async function accept(store: Store, run: RunRecord & { trigger: unknown }, dedup: { keyHash: string; windowSeconds: number } | null = null) {
  const activity: ActivityRecord = {
    id: Bun.randomUUIDv7(),
    triggerId: "t",
    at: run.createdAt,
    requestId: run.requestId,
    outcome: "run",
    runId: run.id,
    detail: null,
  };
  return (await store.commitIngest({ dedup, run, activity })).deduplicated;
}

describe.skipIf(!postgresAvailable())("two instances on one PostgreSQL store", () => {
  test("a key whose window ran out, delivered to both instances at the same moment, is taken over exactly once", async () => {
    const [a, b] = await twoInstances();
    const key = { keyHash: "delivery-1", windowSeconds: 1 };
    const first = newRun(new Date(Date.now() - 5000));
    expect(await accept(a, first, key)).toBe(false);
    const now = new Date();
    const runs = Array.from({ length: 40 }, () => newRun(now));
    const duplicates = await Promise.all(runs.map((run, i) => accept(i % 2 ? a : b, run, key)));
    expect(duplicates.filter((d) => !d)).toHaveLength(1);
    const listed = await b.listRuns({ triggerId: "t", limit: 100, includeTrigger: false });
    expect(listed.map((r) => r.id).sort()).toEqual([first.id, runs[duplicates.indexOf(false)].id].sort());
    expect((await a.listActivity("t", { limit: 100 })).filter((row) => row.outcome === "deduplicated")).toHaveLength(39);
  });

  test("ordering per key: instances claiming and finishing at once never run two of a key together, and start them in acceptance order", async () => {
    const [a, b] = await twoInstances();
    const keys = ["K", "L", "M"];
    const accepted: Record<string, string[]> = { K: [], L: [], M: [] };
    // Accepted one after another, alternately by each instance; some runs have no key.
    for (let i = 0; i < 30; i++) {
      const key = i % 4 === 3 ? null : keys[i % 3];
      const run = newRun(new Date(), { orderingKey: key });
      await accept(i % 2 ? a : b, run);
      if (key) accepted[key].push(run.id);
    }
    const started: Record<string, string[]> = { K: [], L: [], M: [] };
    const holding = new Map<string, string>();
    const overlaps: string[] = [];
    let finished = 0;
    const worker = async (store: PostgresStore, owner: string) => {
      while (finished < 30) {
        const claimed = await store.claimRuns(owner, 3, 60_000, new Date());
        await Promise.all(
          claimed.map(async (run: ClaimedRun) => {
            const key = run.orderingKey;
            if (key) {
              if (holding.has(key)) overlaps.push(`${run.id} started while ${holding.get(key)} of ${key} ran`);
              holding.set(key, run.id);
              started[key].push(run.id);
            }
            await Bun.sleep(Math.random() * 15);
            if (key) holding.delete(key);
            expect(
              await store.finishRun(run.id, owner, { status: "succeeded", result: null, error: null, attempts: 1, finishedAt: new Date().toISOString() }),
            ).toBe(true);
            finished++;
          }),
        );
        if (claimed.length === 0) await Bun.sleep(2);
      }
    };
    await Promise.all([worker(a, "instance-a"), worker(b, "instance-b")]);
    expect(overlaps).toEqual([]);
    expect(started).toEqual(accepted);
  }, 30_000);

  test("alert notifications: instances claiming at once deliver each exactly once", async () => {
    const [a, b] = await twoInstances();
    const since = new Date().toISOString();
    for (let i = 0; i < 12; i++) {
      const alert: AlertRecord = {
        id: `t/backlog:${i + 1}:`,
        triggerId: "t",
        kind: "backlog",
        state: "firing",
        since,
        value: 50,
        threshold: i + 1,
        notifiedAt: null,
      };
      expect(await (i % 2 ? a : b).transitionAlert(alert, null, { id: `n-${i}`, payload: "{}" })).toBe(true);
    }
    const delivered: string[] = [];
    const deliver = async (store: PostgresStore, owner: string) => {
      for (;;) {
        const due = await store.claimAlertNotifications(owner, 2, new Date(), 30_000);
        if (due.length === 0) return;
        for (const n of due) {
          delivered.push(n.id);
          await store.settleAlertNotification(n.id, n.alertId, { deliveredAt: new Date().toISOString() });
        }
      }
    };
    await Promise.all([deliver(a, "a"), deliver(b, "b"), deliver(a, "a2"), deliver(b, "b2")]);
    expect(delivered.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `n-${i}`).sort());
    expect((await a.listAlerts()).every((alert) => alert.notifiedAt !== null)).toBe(true);
  });

  test("a run that outlives its lease on one instance is renewed by it, never taken over by the other", async () => {
    const [a, b, url] = await twoInstances();
    const leaseMs = 3000; // renewed every second: two missed heartbeats of margin
    const trigger = triggerRecord({ id: "t", workflow: { kind: "http", url: "http://127.0.0.1:9/never" } });
    const executions: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const execute = (name: string) => async (_t: unknown, run: ClaimedRun) => {
      executions.push(name);
      await released;
      return { status: "succeeded" as const, attempts: 1, error: null, result: { by: name }, answer: null };
    };
    // B's claims are counted: it must have looked for work well after A's first lease would have lapsed.
    const looks: number[] = [];
    const watched = new Proxy(b, {
      get(target, name) {
        const value = Reflect.get(target, name, target);
        if (name !== "claimRuns") return typeof value === "function" ? value.bind(target) : value;
        return (...args: Parameters<Store["claimRuns"]>) => {
          looks.push(args[3].getTime());
          return target.claimRuns(...args);
        };
      },
    });
    const queueA = new RunQueue({
      store: a,
      triggers: { get: () => trigger },
      execute: execute("a"),
      concurrency: 2,
      pollMs: 50,
      leaseMs,
      owner: "instance-a",
    });
    const queueB = new RunQueue({
      store: watched,
      triggers: { get: () => trigger },
      execute: execute("b"),
      concurrency: 2,
      pollMs: 50,
      leaseMs,
      owner: "instance-b",
    });
    try {
      await queueA.start();
      const run = newRun(new Date());
      await accept(a, run);
      queueA.onCommitted(trigger, run);
      await waitFor("A executes the run", () => executions.length === 1, 10_000);
      const firstLease = await leaseUntil(url, run.id);
      await queueB.start();
      await waitFor(
        "B has looked for work many times after A's first lease would have run out",
        () => looks.filter((t) => t > firstLease).length >= 10,
        20_000,
      );
      expect(executions).toEqual(["a"]);
      expect(await leaseUntil(url, run.id)).toBeGreaterThan(firstLease);
      release();
      await waitFor("the run ends", async () => (await a.getRun(run.id))?.status === "succeeded", 10_000);
      expect((await a.getRun(run.id))?.result).toEqual({ by: "a" });
      expect(executions).toEqual(["a"]);
    } finally {
      release();
      await Promise.all([queueA.stop(1000), queueB.stop(1000)]);
    }
  }, 40_000);
});

/** Until when a run is leased, read from its row. */
async function leaseUntil(url: string, runId: string): Promise<number> {
  const raw = new SQL(url, { max: 1 });
  try {
    const [row] = await raw`SELECT lease_until_ms FROM runs WHERE id = ${runId}`;
    return Number(row.lease_until_ms);
  } finally {
    await raw.close();
  }
}
