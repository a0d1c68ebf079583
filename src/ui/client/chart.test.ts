import { expect, test } from "bun:test";
import { bucketsPerMinute } from "./chart.ts";
import type { ActivityRow } from "./types.ts";

const row = (at: string, outcome: ActivityRow["outcome"], count = 1): ActivityRow => ({
  id: crypto.randomUUID(),
  at,
  requestId: crypto.randomUUID(),
  outcome,
  label: outcome,
  runId: null,
  detail: null,
  count,
});

test("the chart counts requests, not rows: a counted row of refusals adds its count to its minute", () => {
  const now = Date.parse("2026-02-01T12:30:30.000Z");
  const buckets = bucketsPerMinute(
    [row("2026-02-01T12:30:05.000Z", "auth_failed", 440), row("2026-02-01T12:30:01.000Z", "auth_failed"), row("2026-02-01T12:29:59.000Z", "run")],
    now,
  );
  expect(buckets.at(-1)).toMatchObject({ auth_failed: 441, run: 0 });
  expect(buckets.at(-2)).toMatchObject({ auth_failed: 0, run: 1 });
});
