import { expect, test } from "bun:test";
import { ACTIVITY_PAGE, activityFeed, type ActivityPage } from "./activity_feed.ts";
import type { ActivityRow } from "./types.ts";

const NOW = Date.parse("2026-02-01T12:00:00.000Z");
const MINUTE = 60_000;

/** A row `ago` ms before NOW. */
const row = (id: string, ago: number, count = 1): ActivityRow => ({
  id,
  at: new Date(NOW - ago).toISOString(),
  requestId: `req-${id}`,
  outcome: "auth_failed",
  label: "Authentication failed",
  runId: null,
  detail: null,
  count,
});

/** The API over `stored` (newest first): a page of the newest rows, or of those after the row `before`; counts the calls. */
function server(stored: ActivityRow[]) {
  const calls: Array<string | undefined> = [];
  const page: ActivityPage = async (before) => {
    calls.push(before);
    const from = before === undefined ? 0 : stored.findIndex((r) => r.id === before) + 1;
    return stored.slice(from, from + ACTIVITY_PAGE).map((r) => ({ ...r }));
  };
  return { page, calls };
}

const rows = (n: number, agoOf: (i: number) => number, prefix = "r") => Array.from({ length: n }, (_, i) => row(`${prefix}${i}`, agoOf(i)));

test("the first load reads pages until a short one, and then holds every row of the trigger", async () => {
  const stored = rows(250, (i) => i * 1000);
  const { page, calls } = server(stored);
  const feed = activityFeed(page, () => NOW);
  expect(await feed.refresh()).toBe(true);
  expect(calls.length).toBe(2);
  expect(feed.rows.map((r) => r.id)).toEqual(stored.map((r) => r.id));
  expect(feed.complete).toBe(true);
  expect(feed.partialHour).toBe(false);
});

test("the first load stops once a page reaches past the last hour, with older rows still to read", async () => {
  const stored = rows(600, (i) => i * 15_000);
  const { page, calls } = server(stored);
  const feed = activityFeed(page, () => NOW);
  await feed.refresh();
  // The second page ends 100 minutes back: past the hour, so no third page.
  expect(calls.length).toBe(2);
  expect(feed.rows.length).toBe(400);
  expect(feed.complete).toBe(false);
});

test("an hour too busy for ten pages is shown as a partial hour", async () => {
  const stored = rows(ACTIVITY_PAGE * 11, (i) => i * 10);
  const feed = activityFeed(server(stored).page, () => NOW);
  await feed.refresh();
  expect(feed.rows.length).toBe(ACTIVITY_PAGE * 10);
  expect(feed.partialHour).toBe(true);
});

test("a later tick puts only the new rows in front, and says nothing changed when nothing did", async () => {
  const stored = rows(3, (i) => (i + 1) * MINUTE);
  const { page } = server(stored);
  const feed = activityFeed(page, () => NOW);
  await feed.refresh();
  expect(await feed.refresh()).toBe(false);
  stored.unshift(row("new", 0));
  expect(await feed.refresh()).toBe(true);
  expect(feed.rows.map((r) => r.id)).toEqual(["new", "r0", "r1", "r2"]);
});

test("a counted row seen again with a grown count replaces the old one, even below the first page while it is recent", async () => {
  const stored = [...rows(ACTIVITY_PAGE, () => MINUTE), row("counted", 90_000, 70)];
  const feed = activityFeed(server(stored).page, () => NOW);
  await feed.refresh();
  // One new row pushes the counted row to the second page, where it has grown.
  stored.unshift(row("new", 0));
  stored[stored.length - 1] = { ...stored[stored.length - 1], count: 95 };
  expect(await feed.refresh()).toBe(true);
  expect(feed.rows.length).toBe(ACTIVITY_PAGE + 2);
  expect(feed.rows.find((r) => r.id === "counted")?.count).toBe(95);
});

test("a grown count alone is a change to show", async () => {
  const stored = [row("counted", 30_000, 70)];
  const feed = activityFeed(server(stored).page, () => NOW);
  await feed.refresh();
  stored[0] = { ...stored[0], count: 71 };
  expect(await feed.refresh()).toBe(true);
  expect(feed.rows.map((r) => r.count)).toEqual([71]);
});

test("a seen row that is no longer recent ends the tick: older rows are not read again", async () => {
  const stored = [...rows(ACTIVITY_PAGE, () => 10 * MINUTE), row("counted", 11 * MINUTE, 70)];
  const { page, calls } = server(stored);
  const feed = activityFeed(page, () => NOW);
  await feed.refresh();
  stored.unshift(row("new", 0));
  calls.length = 0;
  await feed.refresh();
  expect(calls).toEqual([undefined]);
});

test("older rows are read a page at a time past the last row held, until a short page", async () => {
  const stored = rows(ACTIVITY_PAGE * 2 + 10, (i) => i * MINUTE);
  const { page, calls } = server(stored);
  const feed = activityFeed(page, () => NOW);
  await feed.refresh();
  expect(feed.rows.length).toBe(ACTIVITY_PAGE);
  await feed.older();
  expect(feed.complete).toBe(false);
  await feed.older();
  expect(calls.slice(1)).toEqual([`r${ACTIVITY_PAGE - 1}`, `r${ACTIVITY_PAGE * 2 - 1}`]);
  expect(feed.rows.map((r) => r.id)).toEqual(stored.map((r) => r.id));
  expect(feed.complete).toBe(true);
});
