import { expect, test } from "bun:test";
import { formatClock, formatTime } from "./time.ts";

test("a moment is written as local date and 24-hour time to the second, zero-padded", () => {
  expect(formatTime(new Date(2026, 10, 25, 14, 3, 7))).toBe("2026-11-25 14:03:07");
  expect(formatTime(new Date(2027, 0, 2, 3, 4, 5))).toBe("2027-01-02 03:04:05");
});

test("an ISO string is shown in local time, whatever the day", () => {
  const local = new Date(2025, 1, 3, 23, 59, 58);
  expect(formatTime(local.toISOString())).toBe("2025-02-03 23:59:58");
  // Yesterday and today read the same way: the date is always there.
  const today = new Date();
  expect(formatTime(today.toISOString())).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
});

test("the chart's minutes use the same 24-hour clock", () => {
  expect(formatClock(new Date(2026, 10, 25, 9, 5, 30))).toBe("09:05");
  expect(formatClock(new Date(2026, 10, 25, 9, 5, 30), true)).toBe("09:05:30");
});

test("a value that is not a date is shown as it came rather than as NaN", () => {
  expect(formatTime("not a date")).toBe("not a date");
});
