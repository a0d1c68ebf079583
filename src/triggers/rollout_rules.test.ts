import { expect, test } from "bun:test";
import { rolloutErrors } from "./rollout_rules.ts";

const now = new Date("2026-02-01T12:00:00.000Z");
/** The paths of the problems; the body gives `settled` itself unless another `given` is passed. */
const paths = (settled: Parameters<typeof rolloutErrors>[1], ...given: [Parameters<typeof rolloutErrors>[2]?]) =>
  rolloutErrors("/auth", settled, given.length ? given[0] : settled, now).map((d) => d.path);

test("report mode needs a reportUntil in the future, at most 30 days ahead", () => {
  expect(paths({ mode: "report", reportUntil: "2026-02-02T00:00:00Z" })).toEqual([]);
  expect(paths({ mode: "report", reportUntil: "2026-03-03T12:00:00.000Z" })).toEqual([]);
  expect(paths({ mode: "report", reportUntil: "2026-02-10T00:00:00+02:00" })).toEqual([]);
  for (const reportUntil of [
    undefined,
    "2026-02-01T11:59:59Z",
    "2026-03-03T12:00:00.001Z",
    "tomorrow",
    "2026-02-10",
    "2026-02-10T00:00:00",
    "2026-02-30T00:00:00Z",
  ]) {
    expect([reportUntil, paths({ mode: "report", reportUntil })]).toEqual([reportUntil, ["/auth/reportUntil"]]);
  }
  const [past] = rolloutErrors("/auth", { mode: "report", reportUntil: "2026-01-01T00:00:00Z" }, { reportUntil: "2026-01-01T00:00:00Z" }, now);
  expect(past.message).toBe("must be in the future (it is 2026-02-01T12:00:00.000Z now)");
  const [far] = rolloutErrors("/sources", { mode: "report", reportUntil: "2026-06-01T00:00:00Z" }, { mode: "report" }, now);
  expect(far).toEqual({ path: "/sources/reportUntil", message: "must be at most 30 days ahead (2026-03-03T12:00:00.000Z at the latest)" });
});

test("a window that has ended does not block a change that leaves the mode and date alone", () => {
  const ended = { mode: "report" as const, reportUntil: "2026-01-15T00:00:00Z" };
  expect(paths(ended, undefined)).toEqual([]);
  expect(paths(ended, {})).toEqual([]);
  // Turning report mode on again asks for a new date.
  expect(paths(ended, { mode: "report" })).toEqual(["/auth/reportUntil"]);
});

test("reportUntil only with report mode; enforce (or no mode) needs nothing", () => {
  expect(paths({ mode: "enforce" }, { mode: "enforce", reportUntil: "2026-02-02T00:00:00Z" })).toEqual(["/auth/reportUntil"]);
  expect(paths({}, { reportUntil: "2026-02-02T00:00:00Z" })).toEqual(["/auth/reportUntil"]);
  expect(paths({ mode: "enforce" })).toEqual([]);
  expect(paths(undefined, undefined)).toEqual([]);
});
