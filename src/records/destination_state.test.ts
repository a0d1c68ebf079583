import { expect, test } from "bun:test";
import { okState, statusOf } from "./destination_state.ts";

test("a destination's status: paused first, then its breaker; an open breaker whose time is up shows half-open", () => {
  const ok = okState("t", "d");
  expect(statusOf(ok, 0)).toBe("ok");
  expect(statusOf({ ...ok, paused: true, breaker: "open", openUntilMs: 10 }, 0)).toBe("paused");
  const open = { ...ok, breaker: "open" as const, openUntilMs: 10_000 };
  expect(statusOf(open, 9_999)).toBe("open");
  expect(statusOf(open, 10_000)).toBe("half-open");
  expect(statusOf({ ...ok, breaker: "half-open" }, 0)).toBe("half-open");
});
