import { describe, expect, test } from "bun:test";
import type { TriggerConfig } from "../triggers/schema.ts";
import type { ActivityRecord, RunRecord, Store, StoredTrigger } from "./types.ts";

/** The behaviour every Store must have; run against SQLite (and PostgreSQL where available). */
export function storeContract(name: string, open: () => Promise<Store>): void {
  const config = (id: string, token = `tok-${id}`): TriggerConfig => ({
    id,
    token,
    name: id,
    app: null,
    methods: ["POST"],
    auth: { type: "bearer", signatureHeader: "X-Signature", encoding: "hex" },
    dedup: { strategy: "payload-hash", windowSeconds: 60 },
    filter: { enabled: false, mode: "include" },
    redaction: { enabled: false, patterns: [] },
    response: { mode: "immediate", timeoutMs: 10000 },
    workflow: { kind: "none" },
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  });
  const trigger = (id: string): StoredTrigger => ({ config: config(id), secretSealed: "v1:sealed", appSecretSealed: null });
  const activity = (triggerId: string, at = new Date(), outcome: ActivityRecord["outcome"] = "run", runId: string | null = null): ActivityRecord => ({
    id: Bun.randomUUIDv7(),
    triggerId,
    at: at.toISOString(),
    requestId: crypto.randomUUID(),
    outcome,
    runId,
    detail: null,
  });
  const run = (triggerId: string, at = new Date()): RunRecord & { trigger: unknown } => ({
    id: Bun.randomUUIDv7(),
    triggerId,
    requestId: crypto.randomUUID(),
    status: "succeeded",
    trigger: { body: { n: 1 } },
    result: null,
    attempts: 1,
    error: null,
    createdAt: at.toISOString(),
    finishedAt: at.toISOString(),
  });

  describe(`${name} store`, () => {
    test("triggers: insert, read, update, delete, revision moves on every change", async () => {
      const store = await open();
      const r0 = await store.triggersRevision();
      await store.insertTrigger(trigger("t1"));
      expect(await store.triggersRevision()).toBeGreaterThan(r0);
      expect((await store.getTrigger("t1"))?.config.name).toBe("t1");
      const changed = trigger("t1");
      changed.config.name = "renamed";
      await store.updateTrigger(changed);
      expect((await store.getTrigger("t1"))?.config.name).toBe("renamed");
      expect((await store.listTriggers()).map((t) => t.config.id)).toContain("t1");
      expect(await store.deleteTrigger("t1")).toBe(true);
      expect(await store.deleteTrigger("t1")).toBe(false);
      expect(await store.getTrigger("t1")).toBeNull();
      await store.close();
    });

    test("ingest: key + run + Activity commit together; a second identical key within the window is a duplicate", async () => {
      const store = await open();
      await store.insertTrigger(trigger("t2"));
      const now = new Date();
      const first = run("t2", now);
      const a = await store.commitIngest({ dedup: { keyHash: "k1", windowSeconds: 60 }, run: first, activity: activity("t2", now, "run", first.id) });
      expect(a.deduplicated).toBe(false);
      expect(await store.hasDedupKey("t2", "k1", now)).toBe(true);
      const second = run("t2", now);
      const b = await store.commitIngest({ dedup: { keyHash: "k1", windowSeconds: 60 }, run: second, activity: activity("t2", now, "run", second.id) });
      expect(b.deduplicated).toBe(true);
      expect(await store.getRun(second.id)).toBeNull();
      const rows = await store.listActivity("t2", { limit: 10 });
      expect(rows.map((r) => r.outcome)).toEqual(["deduplicated", "run"]);
      expect(rows[0].runId).toBeNull();
      // The window is fixed from the first sighting.
      expect(await store.hasDedupKey("t2", "k1", new Date(now.getTime() + 61_000))).toBe(false);
      await store.close();
    });

    test("concurrent identical claims produce exactly one run", async () => {
      const store = await open();
      await store.insertTrigger(trigger("t3"));
      const now = new Date();
      const results = await Promise.all(
        Array.from({ length: 50 }, () => {
          const r = run("t3", now);
          return store.commitIngest({ dedup: { keyHash: "same", windowSeconds: 60 }, run: r, activity: activity("t3", now, "run", r.id) });
        }),
      );
      expect(results.filter((r) => !r.deduplicated)).toHaveLength(1);
      expect(await store.listRuns({ triggerId: "t3", limit: 100, includeTrigger: false })).toHaveLength(1);
      expect(await store.listActivity("t3", { limit: 100 })).toHaveLength(50);
      await store.close();
    });

    test("runs and Activity list newest first and page with before", async () => {
      const store = await open();
      await store.insertTrigger(trigger("t4"));
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = run("t4");
        ids.push(r.id);
        await store.commitIngest({ dedup: null, run: r, activity: activity("t4", new Date(), "run", r.id) });
      }
      const page1 = await store.listRuns({ triggerId: "t4", limit: 2, includeTrigger: false });
      expect(page1.map((r) => r.id)).toEqual([ids[4], ids[3]]);
      expect(page1[0].trigger).toBeUndefined();
      const page2 = await store.listRuns({ triggerId: "t4", limit: 2, before: page1[1].id, includeTrigger: true });
      expect(page2.map((r) => r.id)).toEqual([ids[2], ids[1]]);
      expect(page2[0].trigger).toEqual({ body: { n: 1 } });
      await expect(store.listRuns({ limit: 2, before: "missing", includeTrigger: false })).rejects.toThrow("before");
      await store.close();
    });

    test("sweep removes expired keys and old Activity and finished runs only", async () => {
      const store = await open();
      await store.insertTrigger(trigger("t5"));
      const old = new Date(Date.now() - 40 * 86_400_000);
      const oldRun = run("t5", old);
      await store.commitIngest({ dedup: { keyHash: "old", windowSeconds: 1 }, run: oldRun, activity: activity("t5", old, "run", oldRun.id) });
      const fresh = run("t5");
      await store.commitIngest({ dedup: { keyHash: "fresh", windowSeconds: 3600 }, run: fresh, activity: activity("t5", new Date(), "run", fresh.id) });
      const swept = await store.sweep(new Date(), new Date(Date.now() - 30 * 86_400_000));
      expect(swept).toEqual({ dedupKeys: 1, activity: 1, runs: 1 });
      expect(await store.getRun(oldRun.id)).toBeNull();
      expect(await store.getRun(fresh.id)).not.toBeNull();
      expect(await store.hasDedupKey("t5", "fresh", new Date())).toBe(true);
      await store.close();
    });

    test("meta values persist", async () => {
      const store = await open();
      await store.setMeta("x", "1");
      await store.setMeta("x", "2");
      expect(await store.getMeta("x")).toBe("2");
      expect(await store.getMeta("missing")).toBeNull();
      await store.close();
    });
  });
}
