import { expect, test } from "bun:test";
import { MAX_WINDOW, windowProblem } from "./dedup_window.ts";

test("a window is a whole number of seconds from 1 to 24 hours, and is required", () => {
  expect([1, 60, MAX_WINDOW].map((n) => windowProblem(String(n)))).toEqual([null, null, null]);
  expect(windowProblem(" ")).toBe("Enter the window in seconds, from 1 to 86400.");
  expect(windowProblem("1.5")).toBe("Use a whole number of seconds.");
  expect(windowProblem("0")).toBe("The window must be at least 1 second.");
  expect(windowProblem(String(MAX_WINDOW + 1))).toBe("The window can be at most 86400 seconds (24 hours).");
});
