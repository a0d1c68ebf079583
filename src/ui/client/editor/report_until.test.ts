import { expect, test } from "bun:test";
import { fromLocalInput, reportUntilProblem, toLocalInput } from "./report_until.ts";

test("the field shows an instant in local time to the minute, and gives back the same instant", () => {
  const local = new Date(2026, 10, 27, 9, 5, 0);
  expect(toLocalInput(local.toISOString())).toBe("2026-11-27T09:05");
  expect(fromLocalInput("2026-11-27T09:05")).toBe(local.toISOString());
  expect(fromLocalInput(toLocalInput("2026-12-01T00:00:00Z"))).toBe(new Date("2026-12-01T00:00:00Z").toISOString());
  expect(toLocalInput(undefined)).toBe("");
  expect(toLocalInput("not a date")).toBe("");
  for (const text of ["", "2026-11-27", "2026-02-30T10:00", "tomorrow"]) expect(fromLocalInput(text)).toBeNull();
});

test("a new Report until is in the future and at most 30 days ahead", () => {
  const now = new Date("2026-11-27T12:00:00.000Z");
  expect(reportUntilProblem("2026-11-28T12:00:00.000Z", now)).toBeNull();
  expect(reportUntilProblem("2026-12-27T12:00:00.000Z", now)).toBeNull();
  expect(reportUntilProblem(null, now)).toContain("Choose until when");
  expect(reportUntilProblem("2026-11-27T11:59:00.000Z", now)).toBe("Choose a time in the future.");
  expect(reportUntilProblem("2026-12-27T12:01:00.000Z", now)).toBe("At most 30 days ahead.");
});
