import { describe, expect, test } from "bun:test";
import type { TriggerConfig } from "../../src/records/trigger.ts";
import type { ActivityRecord } from "../../src/records/activity.ts";
import type { RunRecord } from "../../src/records/run.ts";
import type { AlertRecord } from "../../src/records/alert.ts";
import type { ReplayQuery } from "../../src/records/ingest.ts";
import type { Store, StoredTrigger } from "../../src/store/store.ts";

/** The behaviour every Store must have; run against SQLite (and PostgreSQL where available). */
export function storeContract(name: string, open: (options?: { sweepChunk?: number }) => Promise<Store>): void {
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

    test("triggers: the armed-until time is stored, changed and cleared with the trigger", async () => {
      const store = await open();
      const until = "2026-03-01T12:15:00.000Z";
      await store.insertTrigger({ ...trigger("t11"), armedUntil: until });
      expect((await store.getTrigger("t11"))?.armedUntil).toBe(until);
      expect((await store.listTriggers()).find((t) => t.config.id === "t11")?.armedUntil).toBe(until);
      const later = "2026-03-01T13:00:00.000Z";
      await store.updateTrigger({ ...trigger("t11"), armedUntil: later });
      expect((await store.getTrigger("t11"))?.armedUntil).toBe(later);
      // An adoption clears it; a trigger saved without one is not armed.
      await store.updateTrigger({ ...trigger("t11"), armedUntil: null });
      expect((await store.getTrigger("t11"))?.armedUntil).toBeNull();
      await store.insertTrigger(trigger("t12"));
      expect((await store.getTrigger("t12"))?.armedUntil).toBeNull();
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

    test("a key past its window is claimed afresh: the next identical request is a new run", async () => {
      const store = await open();
      await store.insertTrigger(trigger("t9"));
      const t0 = new Date();
      const first = run("t9", t0);
      expect((await store.commitIngest({ dedup: { keyHash: "k", windowSeconds: 1 }, run: first, activity: activity("t9", t0, "run", first.id) })).deduplicated).toBe(false);
      const later = new Date(t0.getTime() + 2_000);
      const second = run("t9", later);
      expect((await store.commitIngest({ dedup: { keyHash: "k", windowSeconds: 1 }, run: second, activity: activity("t9", later, "run", second.id) })).deduplicated).toBe(false);
      // The new window runs from the second sighting.
      expect(await store.hasDedupKey("t9", "k", new Date(later.getTime() + 500))).toBe(true);
      expect(await store.listRuns({ triggerId: "t9", limit: 10, includeTrigger: false })).toHaveLength(2);
      await store.close();
    });

    test("setMetaIfAbsent keeps the first value", async () => {
      const store = await open();
      expect(await store.setMetaIfAbsent("first", "a")).toBe("a");
      expect(await store.setMetaIfAbsent("first", "b")).toBe("a");
      expect(await store.getMeta("first")).toBe("a");
      await store.close();
    });

    test("a run committed with a lease is running, held by its owner until the lease lapses", async () => {
      const store = await open();
      await store.insertTrigger(trigger("t10"));
      const now = new Date();
      const r = { ...run("t10", now), status: "running" as const, attempts: 0, finishedAt: null };
      await store.commitIngest({ dedup: null, run: r, activity: activity("t10", now, "run", r.id), lease: { owner: "mine", untilMs: now.getTime() + 10_000 } });
      expect((await store.getRun(r.id))?.status).toBe("running");
      expect(await store.claimRuns("other", 5, 10_000, new Date(now.getTime() + 5_000))).toEqual([]);
      const done = { status: "succeeded" as const, result: null, error: null, attempts: 1, finishedAt: now.toISOString() };
      expect(await store.finishRun(r.id, "other", done)).toBe(false);
      expect(await store.finishRun(r.id, "mine", done)).toBe(true);
      await store.close();
    });

    // In the same millisecond (claims with one expiry), and each a millisecond after the last (each
    // claim would expire at its own time).
    for (const [when, spacingMs] of [["in the same millisecond", 0], ["a millisecond apart", 1]] as const)
    test(`concurrent identical claims ${when} produce exactly one run`, async () => {
      const store = await open();
      await store.insertTrigger(trigger("t3"));
      const now = Date.now();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => {
          const at = new Date(now + i * spacingMs);
          const r = run("t3", at);
          return store.commitIngest({ dedup: { keyHash: "same", windowSeconds: 60 }, run: r, activity: activity("t3", at, "run", r.id) });
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
      expect(swept).toEqual({ dedupKeys: 1, activity: 1, runs: 1, notifications: 0 });
      expect(await store.getRun(oldRun.id)).toBeNull();
      expect(await store.getRun(fresh.id)).not.toBeNull();
      expect(await store.hasDedupKey("t5", "fresh", new Date())).toBe(true);
      await store.close();
    });

    test("runs: queued runs are claimed oldest first and once; finishing needs the lease", async () => {
      const store = await open();
      await store.insertTrigger(trigger("t6"));
      const now = new Date();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = { ...run("t6", now), status: "queued" as const, attempts: 0, finishedAt: null };
        ids.push(r.id);
        await store.commitIngest({ dedup: null, run: r, activity: activity("t6", now, "run", r.id) });
      }
      // Two claimers at once: which one a shared store serves first is not fixed, but each run
      // goes to exactly one, and each gets the oldest of what it got first.
      const [first, second] = await Promise.all([store.claimRuns("a", 2, 60_000, now), store.claimRuns("b", 2, 60_000, now)]);
      expect([...first, ...second].map((r) => r.id).sort()).toEqual([...ids].sort());
      for (const claimed of [first, second]) expect(claimed.map((r) => r.id)).toEqual(ids.filter((id) => claimed.some((r) => r.id === id)));
      const [holder, other] = first.some((r) => r.id === ids[0]) ? ["a", "b"] : ["b", "a"];
      const oldest = [...first, ...second].find((r) => r.id === ids[0])!;
      expect(oldest.status).toBe("running");
      expect(oldest.trigger).toEqual({ body: { n: 1 } });
      expect(await store.claimRun(ids[0], other, 60_000, now)).toBeNull();
      expect(await store.claimRuns("c", 5, 60_000, now)).toEqual([]);

      expect(await store.recordAttempt(ids[0], other, 1, { attempts: [{ status: 503 }] })).toBe(false);
      expect(await store.recordAttempt(ids[0], holder, 1, { attempts: [{ status: 503 }] })).toBe(true);
      expect((await store.getRun(ids[0]))?.attempts).toBe(1);
      const done = { status: "succeeded" as const, result: { status: 200 }, error: null, attempts: 2, finishedAt: new Date().toISOString() };
      expect(await store.finishRun(ids[0], other, done)).toBe(false);
      expect(await store.finishRun(ids[0], holder, done)).toBe(true);
      expect(await store.finishRun(ids[0], holder, done)).toBe(false);
      const finished = await store.getRun(ids[0]);
      expect(finished).toMatchObject({ status: "succeeded", attempts: 2, result: { status: 200 }, error: null, finishedAt: done.finishedAt });
      await store.close();
    });

    test("runs: a lapsed lease is claimed again; released and abandoned runs are queued again", async () => {
      const store = await open();
      await store.insertTrigger(trigger("t7"));
      const now = new Date();
      const r = { ...run("t7", now), status: "queued" as const, attempts: 0, finishedAt: null };
      await store.commitIngest({ dedup: null, run: r, activity: activity("t7", now, "run", r.id) });
      expect(await store.claimRun(r.id, "a", 1_000, now)).not.toBeNull();
      await store.renewLeases("a", [r.id], 10_000, now);
      expect(await store.claimRuns("b", 1, 1_000, new Date(now.getTime() + 5_000))).toEqual([]);
      const taken = await store.claimRuns("b", 1, 1_000, new Date(now.getTime() + 11_000));
      expect(taken.map((x) => x.id)).toEqual([r.id]);
      expect(await store.finishRun(r.id, "a", { status: "failed", result: null, error: "late", attempts: 1, finishedAt: now.toISOString() })).toBe(false);
      await store.releaseRuns("b", [r.id]);
      expect((await store.getRun(r.id))?.status).toBe("queued");
      await store.claimRun(r.id, "c", 60_000, now);
      expect(await store.requeueAbandonedRuns(new Date(now.getTime() + 120_000))).toBe(1);
      expect((await store.getRun(r.id))?.status).toBe("queued");
      await store.close();
    });

    test("sweep deletes in chunks until every old row is gone; unfinished runs and newer rows stay", async () => {
      const store = await open({ sweepChunk: 3 });
      await store.insertTrigger(trigger("t-chunks"));
      const old = new Date(Date.now() - 40 * 86_400_000);
      const ingest = (r: RunRecord & { trigger: unknown }, at: Date, keyHash: string, windowSeconds: number) =>
        store.commitIngest({ dedup: { keyHash, windowSeconds }, run: r, activity: activity("t-chunks", at, "run", r.id) });
      const olds = Array.from({ length: 8 }, () => run("t-chunks", old));
      for (const [i, r] of olds.entries()) await ingest(r, old, `old-${i}`, 1);
      const queued = { ...run("t-chunks", old), status: "queued" as const, attempts: 0, finishedAt: null };
      await ingest(queued, old, "old-queued", 1);
      const fresh = run("t-chunks");
      await ingest(fresh, new Date(), "fresh", 3600);
      // Three rows per table per statement: only going on past full chunks reaches all of them.
      const swept = await store.sweep(new Date(), new Date(Date.now() - 30 * 86_400_000));
      expect(swept).toEqual({ dedupKeys: 9, activity: 9, runs: 8, notifications: 0 });
      for (const r of olds) expect(await store.getRun(r.id)).toBeNull();
      expect((await store.getRun(queued.id))?.status).toBe("queued");
      expect(await store.getRun(fresh.id)).not.toBeNull();
      expect(await store.hasDedupKey("t-chunks", "fresh", new Date())).toBe(true);
      await store.close();
    });

    test("sweep keeps unfinished runs however old (retention by an injected clock)", async () => {
      const store = await open();
      await store.insertTrigger(trigger("t8"));
      const old = new Date(Date.now() - 400 * 86_400_000);
      const queued = { ...run("t8", old), status: "queued" as const, attempts: 0, finishedAt: null };
      const failed = { ...run("t8", old), status: "failed" as const, error: "boom" };
      for (const r of [queued, failed]) await store.commitIngest({ dedup: null, run: r, activity: activity("t8", old, "run", r.id) });
      // One day of retention, seen from a clock a year on: the finished run and the Activity go.
      const later = new Date(old.getTime() + 365 * 86_400_000);
      const swept = await store.sweep(later, new Date(later.getTime() - 86_400_000));
      expect(swept.runs).toBe(1);
      expect(swept.activity).toBe(2);
      expect(await store.getRun(failed.id)).toBeNull();
      expect((await store.getRun(queued.id))?.status).toBe("queued");
      await store.close();
    });

    test("ordering: one run of a key at a time, in acceptance order; other keys and unordered runs go on; live runs before replays", async () => {
      const store = await open();
      await store.insertTrigger(trigger("t-ord"));
      const now = new Date();
      const queued = async (orderingKey: string | null, replayOf: string | null = null) => {
        const r = { ...run("t-ord", now), status: "queued" as const, attempts: 0, finishedAt: null, orderingKey, replayOf };
        await store.commitIngest({ dedup: null, run: r, activity: activity("t-ord", now, "run", r.id) });
        return r.id;
      };
      const replayed = await queued(null, "run-old");
      const a1 = await queued("A");
      const a2 = await queued("A");
      const b1 = await queued("B");
      const free = await queued(null);
      // Live runs are claimed before replayed ones; A's second waits for its first; B and the unordered run go on.
      expect((await store.claimRuns("w", 3, 60_000, now)).map((r) => r.id)).toEqual([a1, b1, free]);
      expect(await store.claimRun(a2, "w", 60_000, now)).toBeNull();
      expect(await store.runsWaitingOnKey()).toEqual({ "t-ord": 1 });
      expect((await store.claimRuns("w", 10, 60_000, now)).map((r) => r.id)).toEqual([replayed]);
      expect(await store.claimRuns("w", 10, 60_000, now)).toEqual([]);
      // A retrying run is still running: it holds its key.
      expect(await store.recordAttempt(a1, "w", 1, null)).toBe(true);
      expect(await store.claimRuns("w", 10, 60_000, now)).toEqual([]);
      await store.finishRun(a1, "w", { status: "failed", result: null, error: "gave up", attempts: 3, finishedAt: now.toISOString() });
      expect((await store.claimRuns("w", 10, 60_000, now)).map((r) => r.id)).toEqual([a2]);
      expect(await store.runsWaitingOnKey()).toEqual({});
      expect((await store.getRun(replayed))?.replayOf).toBe("run-old");
      expect((await store.getRun(a1))?.replayOf).toBeNull();
      await store.close();
    });

    test("replay: filtered rows keep their request; runs and filtered rows are selected by status and time, oldest first, in pages", async () => {
      const store = await open();
      await store.insertTrigger(trigger("t-rep"));
      const base = Date.parse("2026-03-01T00:00:00.000Z");
      const ids: string[] = [];
      const requestIds: string[] = [];
      for (let i = 0; i < 5; i++) {
        const at = new Date(base + i * 1000);
        const r = { ...run("t-rep", at), status: i % 2 === 0 ? ("failed" as const) : ("succeeded" as const), trigger: { body: { i } } };
        ids.push(r.id);
        requestIds.push(r.requestId);
        await store.commitIngest({ dedup: null, run: r, activity: activity("t-rep", at, "run", r.id) });
      }
      const filtered = { ...activity("t-rep", new Date(base + 2500), "filtered"), detail: "filter (include) did not match", request: { body: { f: 1 } } };
      await store.commitIngest({ dedup: null, run: null, activity: filtered });
      await store.recordActivity({ ...activity("t-rep", new Date(base + 2600), "auth_failed"), request: { body: "never kept" } });

      expect(await store.getActivity(filtered.id)).toMatchObject({ outcome: "filtered", request: { body: { f: 1 } } });
      expect(await store.getActivity("nope")).toBeNull();
      const failed = { triggerId: "t-rep", source: "runs" as const, statuses: ["failed" as const] };
      const all = async (query: ReplayQuery) => (await store.listReplayable(query, 0, 100)).map((c) => c.id);
      const page1 = await store.listReplayable(failed, 0, 2);
      expect(page1.map((c) => c.id)).toEqual([ids[0], ids[2]]);
      expect(page1[1].trigger).toEqual({ body: { i: 2 } });
      expect((await store.listReplayable(failed, page1[1].seq, 2)).map((c) => c.id)).toEqual([ids[4]]);
      const window = { triggerId: "t-rep", source: "runs" as const, sinceMs: base + 1000, untilMs: base + 3000 };
      expect(await all(window)).toEqual([ids[1], ids[2], ids[3]]);
      const byFilter = { triggerId: "t-rep", source: "filtered" as const };
      expect(await store.listReplayable(byFilter, 0, 10)).toEqual([{ seq: expect.any(Number), id: filtered.id, requestId: filtered.requestId, trigger: { body: { f: 1 } } }]);
      expect(await all({ ...byFilter, sinceMs: base + 2600 })).toEqual([]);

      // Once a run replays a run or a filtered request (keeping its request id), the replay is its
      // latest attempt: the one selected from then on.
      const later = new Date(base + 10_000);
      const again = { ...run("t-rep", later), requestId: requestIds[0], status: "failed" as const, replayOf: ids[0], trigger: { body: { i: 0 } } };
      const fromFilter = { ...run("t-rep", later), requestId: filtered.requestId, status: "succeeded" as const, replayOf: filtered.id, trigger: { body: { f: 1 } } };
      for (const r of [again, fromFilter]) await store.commitIngest({ dedup: null, run: r, activity: activity("t-rep", later, "run", r.id) });
      expect(await all(failed)).toEqual([ids[2], ids[4], again.id]);
      expect(await all(byFilter)).toEqual([]);
      expect(await store.countReplayable(failed)).toBe(3);
      // The same run replayed a second time: that replay is the request's latest attempt, the request still counts once.
      const twice = { ...run("t-rep", later), requestId: requestIds[0], status: "failed" as const, replayOf: ids[0], trigger: { body: { i: 0 } } };
      await store.commitIngest({ dedup: null, run: twice, activity: activity("t-rep", later, "run", twice.id) });
      expect(await all(failed)).toEqual([ids[2], ids[4], twice.id]);
      expect(await store.countReplayable(failed)).toBe(3);
      expect(await store.countReplayable(byFilter)).toBe(0);
      await store.close();
    });

    test("replay selects one row per request, its latest attempt: the count, the pages and what is replayed agree; a request a run came of is not selected again by any of its rows", async () => {
      const store = await open();
      await store.insertTrigger(trigger("t-once"));
      const base = Date.parse("2026-04-01T00:00:00.000Z");
      const at = (s: number) => new Date(base + s * 1000);
      const filteredRow = (s: number, requestId: string, detail: string) => ({ ...activity("t-once", at(s), "filtered"), requestId, detail, request: { body: { requestId } } });
      const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
      // Request a is filtered, then b; a is replayed through the filter twice and filtered each time.
      const a1 = filteredRow(0, a, "filter (include) did not match");
      const b1 = filteredRow(1, b, "filter (include) did not match");
      const a2 = filteredRow(2, a, `replay of ${a1.id}: filter (include) did not match`);
      const a3 = filteredRow(3, a, `replay of ${a2.id}: filter (include) did not match`);
      for (const row of [a1, b1, a2, a3]) await store.commitIngest({ dedup: null, run: null, activity: row });

      const byFilter = { triggerId: "t-once", source: "filtered" as const };
      const ids = async (query: ReplayQuery) => (await store.listReplayable(query, 0, 100)).map((c) => c.id);
      const pagedOneByOne = async (query: ReplayQuery) => {
        const seen: string[] = [];
        for (let after = 0, page = await store.listReplayable(query, after, 1); page.length > 0; page = await store.listReplayable(query, after, 1)) {
          seen.push(page[0].id);
          after = page[0].seq;
        }
        return seen;
      };
      expect(await store.countReplayable(byFilter)).toBe(2);
      expect(await ids(byFilter)).toEqual([b1.id, a3.id]);
      expect(await pagedOneByOne(byFilter)).toEqual([b1.id, a3.id]);
      // The time window applies to that latest row: a's is after this one.
      const early = { ...byFilter, untilMs: base + 2500 };
      expect(await store.countReplayable(early)).toBe(1);
      expect(await ids(early)).toEqual([b1.id]);

      // A run of request a, from a replay of its oldest row: none of a's rows is selected any more.
      const fromOldest = { ...run("t-once", at(4)), requestId: a, replayOf: a1.id, trigger: { body: { requestId: a } } };
      await store.commitIngest({ dedup: null, run: fromOldest, activity: { ...activity("t-once", at(4), "run", fromOldest.id), requestId: a } });
      expect(await store.countReplayable(byFilter)).toBe(1);
      expect(await ids(byFilter)).toEqual([b1.id]);

      // Runs: a failed run replayed twice by hand, the second replay succeeded. The request's latest
      // attempt is that success: "replay failed runs" leaves it alone, though an older attempt failed.
      const c1 = { ...run("t-once", at(5)), status: "failed" as const };
      const c2 = { ...run("t-once", at(6)), requestId: c1.requestId, status: "failed" as const, replayOf: c1.id };
      const c3 = { ...run("t-once", at(7)), requestId: c1.requestId, status: "succeeded" as const, replayOf: c1.id };
      for (const r of [c1, c2, c3]) await store.commitIngest({ dedup: null, run: r, activity: { ...activity("t-once", at(5), "run", r.id), requestId: r.requestId } });
      const failed = { triggerId: "t-once", source: "runs" as const, statuses: ["failed" as const] };
      expect(await store.countReplayable(failed)).toBe(0);
      expect(await ids(failed)).toEqual([]);
      const anyStatus = { triggerId: "t-once", source: "runs" as const };
      expect(await store.countReplayable(anyStatus)).toBe(2);
      expect(await ids(anyStatus)).toEqual([fromOldest.id, c3.id]);
      expect(await pagedOneByOne(anyStatus)).toEqual([fromOldest.id, c3.id]);
      await store.close();
    });

    test("alerts: each transition is recorded once however many evaluators race; a newer one supersedes an undelivered notification; notifications are leased, retried, settled, dropped with their alert", async () => {
      const store = await open();
      const since = new Date().toISOString();
      const firing: AlertRecord = { id: "ta/silence::60", triggerId: "ta", kind: "silence", state: "firing", since, value: 90, threshold: 60, notifiedAt: null };
      const note = (id: string) => ({ id, payload: JSON.stringify({ note: id }) });
      const raced = await Promise.all(Array.from({ length: 10 }, (_, i) => store.transitionAlert(firing, null, note(`n-fire-${i}`))));
      expect(raced.filter(Boolean)).toHaveLength(1);
      const winner = `n-fire-${raced.indexOf(true)}`;
      expect(await store.transitionAlert(firing, "ok", note("n-stale"))).toBe(false);
      expect(await store.listAlerts()).toEqual([firing]);

      const t0 = new Date();
      const at = (ms: number) => new Date(t0.getTime() + ms);
      expect(await store.claimAlertNotifications("a", 10, t0, 30_000)).toEqual([{ id: winner, alertId: firing.id, payload: note(winner).payload, attempts: 0 }]);
      // Leased: nobody else gets it while the lease holds; once failed, it is due again at its next attempt.
      expect(await store.claimAlertNotifications("b", 10, at(1000), 30_000)).toEqual([]);
      await store.settleAlertNotification(winner, firing.id, { nextMs: at(2000).getTime() });
      expect(await store.claimAlertNotifications("b", 10, at(1000), 30_000)).toEqual([]);
      expect((await store.claimAlertNotifications("b", 10, at(2000), 30_000)).map((n) => [n.id, n.attempts])).toEqual([[winner, 1]]);

      // Resolved before the firing one was delivered: only the resolution goes out.
      const ok: AlertRecord = { ...firing, state: "ok", since: at(3000).toISOString(), value: 0 };
      expect(await store.transitionAlert(ok, "firing", note("n-ok"))).toBe(true);
      expect((await store.claimAlertNotifications("c", 10, at(60_000), 30_000)).map((n) => n.id)).toEqual(["n-ok"]);
      // The firing one was being sent (leased by b) when the alert resolved: it settles, but never marks the new state notified.
      await store.settleAlertNotification(winner, firing.id, { deliveredAt: at(60_500).toISOString() });
      expect((await store.listAlerts())[0].notifiedAt).toBeNull();
      const deliveredAt = at(61_000).toISOString();
      await store.settleAlertNotification("n-ok", ok.id, { deliveredAt });
      expect(await store.claimAlertNotifications("c", 10, at(600_000), 30_000)).toEqual([]);
      expect(await store.listAlerts()).toEqual([{ ...ok, notifiedAt: deliveredAt }]);

      const other: AlertRecord = { ...firing, id: "tb/backlog:1:", triggerId: "tb", kind: "backlog", value: 2, threshold: 1 };
      expect(await store.transitionAlert(other, null, note("n-other"))).toBe(true);
      await store.dropAlerts((id) => id !== other.id);
      expect((await store.listAlerts()).map((a) => a.id)).toEqual([ok.id]);
      expect(await store.claimAlertNotifications("d", 10, at(600_000), 30_000)).toEqual([]);
      await store.close();
    });

    test("sweep removes alert notifications delivered before the cut-off; undelivered ones stay however old", async () => {
      const store = await open();
      const old = new Date(Date.now() - 40 * 86_400_000);
      const alert = (id: string): AlertRecord => ({ id, triggerId: "tn", kind: "silence", state: "firing", since: old.toISOString(), value: 90, threshold: 60, notifiedAt: null });
      for (const id of ["tn/a", "tn/b", "tn/c"]) expect(await store.transitionAlert(alert(id), null, { id: `n-${id}`, payload: "{}" })).toBe(true);
      expect((await store.claimAlertNotifications("o", 10, old, 30_000)).map((n) => n.id).sort()).toEqual(["n-tn/a", "n-tn/b", "n-tn/c"]);
      await store.settleAlertNotification("n-tn/a", "tn/a", { deliveredAt: old.toISOString() });
      await store.settleAlertNotification("n-tn/b", "tn/b", { deliveredAt: new Date().toISOString() });
      // n-tn/c was never delivered: it is retried, not swept.
      await store.settleAlertNotification("n-tn/c", "tn/c", { nextMs: old.getTime() });
      const swept = await store.sweep(new Date(), new Date(Date.now() - 30 * 86_400_000));
      expect(swept.notifications).toBe(1);
      expect((await store.claimAlertNotifications("o", 10, new Date(), 30_000)).map((n) => n.id)).toEqual(["n-tn/c"]);
      expect((await store.listAlerts()).find((a) => a.id === "tn/a")?.notifiedAt).toBe(old.toISOString());
      await store.close();
    });

    test("counted Activity: one row per trigger, outcome, clock minute and reason; the first count's id, time and request id; the count grows; alerts count requests", async () => {
      const store = await open();
      await store.insertTrigger(trigger("t-count"));
      const minute = Math.floor(Date.now() / 60_000) * 60_000;
      const at = (ms: number) => new Date(minute + ms);
      const refused = (ms: number, outcome: ActivityRecord["outcome"], detail: string | null): ActivityRecord => ({ ...activity("t-count", at(ms), outcome), detail });
      const own = refused(1_000, "auth_failed", "wrong bearer token");
      await store.recordActivity(own);
      const first = refused(2_000, "auth_failed", "wrong bearer token");
      await store.countActivity(first);
      await store.countActivity(refused(3_000, "auth_failed", "wrong bearer token"));
      // Many at once, as a flood brings them: each adds one.
      await Promise.all(Array.from({ length: 40 }, (_, i) => store.countActivity(refused(4_000 + i, "auth_failed", "wrong bearer token"))));
      await store.countActivity({ ...refused(5_000, "auth_failed", "wrong bearer token"), count: 10 });
      // Another reason, another outcome, no reason at all, the next minute: rows of their own.
      const missing = refused(6_000, "auth_failed", "missing Authorization header");
      await store.countActivity(missing);
      const limited = refused(7_000, "rejected", "wrong bearer token");
      await store.countActivity(limited);
      const unexplained = refused(8_000, "rejected", null);
      await store.countActivity(unexplained);
      await store.countActivity(refused(9_000, "rejected", null));
      const next = refused(61_000, "auth_failed", "wrong bearer token");
      await store.countActivity(next);

      const rows = await store.listActivity("t-count", { limit: 50 });
      expect(rows.map((r) => [r.id, r.outcome, r.detail, r.count])).toEqual([
        [next.id, "auth_failed", "wrong bearer token", 1],
        [unexplained.id, "rejected", null, 2],
        [limited.id, "rejected", "wrong bearer token", 1],
        [missing.id, "auth_failed", "missing Authorization header", 1],
        [first.id, "auth_failed", "wrong bearer token", 52],
        [own.id, "auth_failed", "wrong bearer token", 1],
      ]);
      expect(rows[4]).toMatchObject({ at: first.at, requestId: first.requestId, runId: null });
      expect(await store.getActivity(first.id)).toMatchObject({ count: 52, requestId: first.requestId });
      // Every request counts: 1 + 52 + 1 in the first minute, 1 in the next.
      const rule = { kind: "auth_failures" as const, count: 10, seconds: 300 };
      expect(await store.measureAlert("t-count", rule, at(120_000), at(0).toISOString())).toBe(55);
      expect(await store.measureAlert("t-count", { ...rule, seconds: 60 }, at(120_000), at(0).toISOString())).toBe(1);
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
