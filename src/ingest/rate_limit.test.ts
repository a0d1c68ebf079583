import { expect, test } from "bun:test";
import { RateLimiter } from "./rate_limit.ts";

const T0 = Date.parse("2026-03-01T12:00:00.000Z");

test("a burst of `rate` requests passes, the next waits for one token: 1000/rate ms", () => {
  const limiter = new RateLimiter(10);
  for (let i = 0; i < 10; i++) expect(limiter.take("a", T0)).toBe(0);
  expect(limiter.take("a", T0)).toBe(100);
  // Refilled at `rate` per second: 100 ms later exactly one more passes.
  expect(limiter.take("a", T0 + 100)).toBe(0);
  expect(limiter.take("a", T0 + 100)).toBe(100);
});

test("each key has its own bucket", () => {
  const limiter = new RateLimiter(1);
  expect(limiter.take("a", T0)).toBe(0);
  expect(limiter.take("a", T0)).toBeGreaterThan(0);
  expect(limiter.take("b", T0)).toBe(0);
});

test("a wall clock stepped back does not lock a trigger out for as long as it went back", () => {
  const limiter = new RateLimiter(2);
  expect(limiter.take("a", T0)).toBe(0);
  expect(limiter.take("a", T0)).toBe(0);
  // NTP steps the clock back an hour: the bucket is as empty as it was, not an hour in debt.
  const back = T0 - 3_600_000;
  expect(limiter.take("a", back)).toBe(500);
  expect(limiter.take("a", back + 500)).toBe(0);
  expect(limiter.take("a", back + 1000)).toBe(0);
});
