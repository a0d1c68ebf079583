import { expect, test } from "bun:test";
import { MemoryIngestStore } from "../../test/support/ingest.ts";
import type { ActivityOutcome } from "../records/activity.ts";
import { activityRow } from "./activity.ts";
import { COUNTED_REASONS_PER_MINUTE, OTHER_REASONS, OWN_ROWS_PER_MINUTE, RefusalTally, writeActivity } from "./refusal_tally.ts";

const MINUTE = Date.parse("2026-02-01T12:00:00.000Z");

function refusals() {
  const store = new MemoryIngestStore();
  const tally = new RefusalTally();
  const refuse = (atMs: number, outcome: ActivityOutcome = "auth_failed", detail: string | null = "wrong bearer token", triggerId = "t1") => {
    const row = activityRow({ triggerId, requestId: crypto.randomUUID(), now: new Date(atMs) }, outcome, detail, null);
    return writeActivity(store, tally, row).then(() => row);
  };
  return { store, refuse };
}

test("a flood in one minute: the first 60 refusals a row each, the rest one counted row (the 61st's id and request id)", async () => {
  const { store, refuse } = refusals();
  const rows = [];
  for (let i = 0; i < 500; i++) rows.push(await refuse(MINUTE + i * 100));
  expect(store.activity).toHaveLength(OWN_ROWS_PER_MINUTE + 1);
  expect(store.activity.slice(0, 60).map((r) => r.count ?? 1)).toEqual(Array(60).fill(1));
  expect(store.activity[60]).toMatchObject({ id: rows[60].id, requestId: rows[60].requestId, at: rows[60].at, detail: "wrong bearer token", count: 440 });
});

test("the next clock minute starts again with rows of their own", async () => {
  const { store, refuse } = refusals();
  for (let i = 0; i < 70; i++) await refuse(MINUTE + 59_000);
  for (let i = 0; i < 70; i++) await refuse(MINUTE + 60_000);
  expect(store.activity.map((r) => r.count ?? 1)).toEqual([...Array(60).fill(1), 10, ...Array(60).fill(1), 10]);
});

test("each trigger and outcome has its own 60; accepted and failed requests are never counted", async () => {
  const { store, refuse } = refusals();
  for (let i = 0; i < 61; i++) {
    await refuse(MINUTE, "auth_failed");
    await refuse(MINUTE, "rejected", "rate limited");
    await refuse(MINUTE, "auth_failed", "wrong bearer token", "t2");
    await refuse(MINUTE, "error", "storage unavailable");
  }
  const rowsOf = (triggerId: string, outcome: ActivityOutcome) => store.activity.filter((r) => r.triggerId === triggerId && r.outcome === outcome);
  expect(rowsOf("t1", "auth_failed")).toHaveLength(61);
  expect(rowsOf("t1", "rejected")).toHaveLength(61);
  expect(rowsOf("t2", "auth_failed")).toHaveLength(61);
  expect(rowsOf("t1", "error")).toHaveLength(61);
  // The 61st of each refusal is the minute's counted row (count 1 so far); every error is its own row.
  expect(rowsOf("t1", "auth_failed").at(-1)!.count).toBe(1);
  expect(rowsOf("t1", "error").every((r) => r.count === undefined)).toBe(true);
});

test("past the minute's own rows, a row per reason; reasons past the bound share one row, so a flood varying its reason stays bounded", async () => {
  const { store, refuse } = refusals();
  for (let i = 0; i < OWN_ROWS_PER_MINUTE; i++) await refuse(MINUTE);
  for (let i = 0; i < 500; i++) await refuse(MINUTE + 1, "rejected", `source address 2001:db8::${i.toString(16)} is not in the trigger's allowed sources`);
  for (let i = 0; i < 500; i++) await refuse(MINUTE + 2, "auth_failed", `acme timestamp too old by ${301 + i} s (tolerance 300 s)`);
  const counted = store.activity.slice(OWN_ROWS_PER_MINUTE);
  const rejected = store.activity.filter((r) => r.outcome === "rejected");
  // Rejections have their own 60 (each its own reason), then 20 reasons counted, then the others.
  expect(rejected).toHaveLength(OWN_ROWS_PER_MINUTE + COUNTED_REASONS_PER_MINUTE + 1);
  expect(rejected.at(-1)).toMatchObject({ detail: OTHER_REASONS, count: 500 - OWN_ROWS_PER_MINUTE - COUNTED_REASONS_PER_MINUTE });
  const failures = counted.filter((r) => r.outcome === "auth_failed");
  expect(failures).toHaveLength(COUNTED_REASONS_PER_MINUTE + 1);
  expect(failures.reduce((n, r) => n + (r.count ?? 1), 0)).toBe(500);
});
