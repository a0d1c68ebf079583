import { expect, test } from "bun:test";
import type { ReplayQuery } from "../../src/records/ingest.ts";
import { parseJson } from "../../src/json/index.ts";
import { activity, run, trigger, type OpenStore } from "./contract_fixtures.ts";

/** History: runs and Activity read back in pages; what a bulk replay selects. */
export function historyContract(open: OpenStore): void {
  test("$trigger, results and filtered requests come back with their numbers exactly as stored (1e400, 9007199254740993)", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t-exact"));
    const now = new Date();
    const text = '{"body":{"id":9007199254740993,"big":1e400,"long":0.1000000000000000055511151231257827}}';
    const r = { ...run("t-exact", now), status: "failed" as const, result: parseJson('{"echo":12345678901234567890}') };
    await store.commitIngest({ dedup: null, run: r, triggerJson: text, activity: activity("t-exact", now, "run", r.id) });
    const read = await store.getRun(r.id);
    expect(JSON.stringify(read?.trigger)).toBe(text);
    expect(JSON.stringify(read?.result)).toBe('{"echo":12345678901234567890}');
    expect(JSON.stringify((await store.listRuns({ triggerId: "t-exact", limit: 10, includeTrigger: true }))[0].trigger)).toBe(text);
    const replayable = await store.listReplayable({ triggerId: "t-exact", source: "runs", statuses: ["failed"] }, 0, 10);
    expect(JSON.stringify(replayable[0].trigger)).toBe(text);
    const filtered = { ...activity("t-exact", now, "filtered"), detail: "filter (include) did not match", request: parseJson(text) };
    await store.commitIngest({ dedup: null, run: null, activity: filtered });
    expect(JSON.stringify((await store.getActivity(filtered.id))?.request)).toBe(text);
    expect(JSON.stringify((await store.listReplayable({ triggerId: "t-exact", source: "filtered" }, 0, 10))[0].trigger)).toBe(text);
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
    expect(await store.listReplayable(byFilter, 0, 10)).toEqual([
      { seq: expect.any(Number), id: filtered.id, requestId: filtered.requestId, trigger: { body: { f: 1 } } },
    ]);
    expect(await all({ ...byFilter, sinceMs: base + 2600 })).toEqual([]);

    // Once a run replays a run or a filtered request (keeping its request id), the replay is its
    // latest attempt: the one selected from then on.
    const later = new Date(base + 10_000);
    const again = { ...run("t-rep", later), requestId: requestIds[0], status: "failed" as const, replayOf: ids[0], trigger: { body: { i: 0 } } };
    const fromFilter = {
      ...run("t-rep", later),
      requestId: filtered.requestId,
      status: "succeeded" as const,
      replayOf: filtered.id,
      trigger: { body: { f: 1 } },
    };
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
    const filteredRow = (s: number, requestId: string, detail: string) => ({
      ...activity("t-once", at(s), "filtered"),
      requestId,
      detail,
      request: { body: { requestId } },
    });
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
    for (const r of [c1, c2, c3])
      await store.commitIngest({ dedup: null, run: r, activity: { ...activity("t-once", at(5), "run", r.id), requestId: r.requestId } });
    const failed = { triggerId: "t-once", source: "runs" as const, statuses: ["failed" as const] };
    expect(await store.countReplayable(failed)).toBe(0);
    expect(await ids(failed)).toEqual([]);
    const anyStatus = { triggerId: "t-once", source: "runs" as const };
    expect(await store.countReplayable(anyStatus)).toBe(2);
    expect(await ids(anyStatus)).toEqual([fromOldest.id, c3.id]);
    expect(await pagedOneByOne(anyStatus)).toEqual([fromOldest.id, c3.id]);
    await store.close();
  });
}
