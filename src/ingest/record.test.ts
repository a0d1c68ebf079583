import { expect, test } from "bun:test";
import { MemoryIngestStore, triggerRecord } from "../../test/support/ingest.ts";
import type { Delivery } from "./delivery.ts";
import { recordFiltered, recordRun } from "./record.ts";

function delivery(overrides: Partial<Delivery> = {}): Delivery {
  return {
    trigger: triggerRecord(),
    requestId: "req-1",
    now: new Date("2026-02-01T12:00:00.000Z"),
    receivedAt: "2026-02-01T11:00:00.000Z",
    method: "POST",
    headers: { "content-type": "application/json" },
    query: {},
    body: { email: "a@b.c" },
    bodyJson: null,
    app: null,
    claim: { keyHash: "h1", windowSeconds: 60 },
    replayOf: null,
    ...overrides,
  };
}

test("the run, its key and its Activity row are one commit; workflow none is recorded as succeeded", async () => {
  const store = new MemoryIngestStore();
  const { run, duplicate } = await recordRun({ store }, delivery(), { email: "[REDACTED]" });
  expect(duplicate).toBe(false);
  expect(store.commits).toHaveLength(1);
  expect(store.commits[0].dedup).toEqual({ keyHash: "h1", windowSeconds: 60 });
  expect(run).toMatchObject({
    status: "succeeded",
    attempts: 1,
    requestId: "req-1",
    createdAt: "2026-02-01T12:00:00.000Z",
    finishedAt: "2026-02-01T12:00:00.000Z",
  });
  expect(run.trigger).toEqual({
    body: { email: "[REDACTED]" },
    headers: { "content-type": "application/json" },
    query: {},
    method: "POST",
    receivedAt: "2026-02-01T11:00:00.000Z",
    requestId: "req-1",
    triggerId: "trg_1",
    app: null,
  });
  expect(store.activity).toEqual([expect.objectContaining({ outcome: "run", runId: run.id, detail: null, requestId: "req-1" })]);
});

test("a workflow run is committed queued, with a direct slot of this instance's in workflow response mode", async () => {
  const http = triggerRecord({ workflow: { kind: "http", url: "http://127.0.0.1:9/hook" } as never });
  const queued = await recordRun({ store: new MemoryIngestStore() }, delivery({ trigger: http }), {});
  expect(queued.run).toMatchObject({ status: "queued", attempts: 0, finishedAt: null });
  const store = new MemoryIngestStore();
  const slot = { release: () => {}, reservation: { owner: "here", untilMs: 42_000 } };
  const direct = await recordRun({ store, directSlot: () => slot }, delivery({ trigger: http }), {});
  // Queued all the same: the queue claims it under its destination's limits.
  expect(direct.run.status).toBe("queued");
  // Reserved for this instance, where its caller waits: no other instance claims it first.
  expect(store.commits[0].reservedFor).toEqual({ owner: "here", untilMs: 42_000 });
  // Handed on with the run: its slot is the run's until the queue is done with it.
  expect(direct.slot).toBe(slot);
});

test("a direct slot no run was committed with (a duplicate, a failed commit) is released, and only that one", async () => {
  const http = triggerRecord({ workflow: { kind: "http", url: "http://127.0.0.1:9/hook" } as never });
  const store = new MemoryIngestStore();
  let released = 0;
  const deps = { store, directSlot: () => ({ release: () => released++, reservation: { owner: "here", untilMs: 42_000 } }) };
  const first = await recordRun(deps, delivery({ trigger: http }), {});
  expect(released).toBe(0);
  expect(first.slot).not.toBeNull();
  const duplicate = await recordRun(deps, delivery({ trigger: http, requestId: "req-2" }), {});
  expect(duplicate.duplicate).toBe(true);
  expect(duplicate.slot).toBeNull();
  expect(released).toBe(1);
  const failing = { ...deps, store: { commitIngest: () => Promise.reject(new Error("disk full")) } };
  await expect(recordRun(failing, delivery({ trigger: http, claim: null }), {})).rejects.toThrow("disk full");
  expect(released).toBe(2);
});

test("a key already claimed makes the commit a duplicate, with no run", async () => {
  const store = new MemoryIngestStore();
  await recordRun({ store }, delivery(), {});
  const again = await recordRun({ store }, delivery({ requestId: "req-2" }), {});
  expect(again.duplicate).toBe(true);
  expect(store.runs).toHaveLength(1);
  expect(store.activity.map((a) => a.outcome)).toEqual(["run", "deduplicated"]);
});

test("a filtered request records its key and reason without a run, and keeps its redacted request for replay", async () => {
  const store = new MemoryIngestStore();
  expect(await recordFiltered({ store }, delivery(), "filter (include) did not match", { email: "[REDACTED]" })).toBe(false);
  expect(store.runs).toHaveLength(0);
  expect(store.activity).toEqual([expect.objectContaining({ outcome: "filtered", detail: "filter (include) did not match", runId: null })]);
  expect(store.activity[0].request).toMatchObject({ body: { email: "[REDACTED]" }, requestId: "req-1", receivedAt: "2026-02-01T11:00:00.000Z" });
});

test("a replayed run remembers what it replays; neither it nor an ordered one takes a direct slot", async () => {
  const http = triggerRecord({ workflow: { kind: "http", url: "http://127.0.0.1:9/hook" } as never, response: { mode: "workflow", timeoutMs: 1000 } });
  const store = new MemoryIngestStore();
  const { run, slot } = await recordRun(
    { store, directSlot: () => ({ release: () => {}, reservation: { owner: "here", untilMs: 42_000 } }) },
    delivery({ trigger: http, claim: null, replayOf: "run-0" }),
    {},
    "key-hash",
  );
  expect(run).toMatchObject({ replayOf: "run-0", orderingKey: "key-hash", status: "queued" });
  expect(slot).toBeNull();
  expect(store.commits[0].reservedFor).toBeNull();
});

test("a replay's Activity row names what it replays", async () => {
  const store = new MemoryIngestStore();
  await recordRun({ store }, delivery({ claim: null, replayOf: "run-0" }), {});
  expect(store.activity[0].detail).toBe("replay of run-0");
});

test("the stored $trigger keeps the body's JSON text as received while the body is unchanged, and parses to the same value either way", async () => {
  const text = '{ "email" : "a@b.c",\n  "n": 1.50, "big": 12345678901234567890 }';
  const body = JSON.parse(text);
  const received = delivery({ body, bodyJson: text });
  const stored = async (d: Delivery, redacted: unknown) => {
    const store = new MemoryIngestStore();
    const { run } = await recordRun({ store }, d, redacted);
    // The run itself stays a plain record: the text goes to the store beside it.
    expect(run).not.toHaveProperty("triggerJson");
    return { run, json: store.commits[0].triggerJson! };
  };
  const kept = await stored(received, body);
  expect(kept.json).toStartWith(`{"body":${text},"headers":`);
  expect(JSON.parse(kept.json)).toEqual(kept.run.trigger);
  // Redaction made a new body: the text no longer says what is stored, so the payload is serialized.
  const changed = await stored(received, { ...body, email: "[REDACTED]" });
  expect(changed.json).toBe(JSON.stringify(changed.run.trigger));
  expect(changed.json).not.toContain("a@b.c");
  // A replay (no text) is serialized too.
  const replayed = await stored(delivery({ body, bodyJson: null, claim: null }), body);
  expect(replayed.json).toBe(JSON.stringify(replayed.run.trigger));
});
