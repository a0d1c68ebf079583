import { expect, test } from "bun:test";
import { DEFAULT_BACKOFF, isRetryableStatus, jitteredDelay, retryAfterMs } from "./backoff.ts";

test("full jitter: a uniform wait under a ceiling that doubles per attempt, capped", () => {
  const policy = { baseMs: 100, maxMs: 1000, maxRetryAfterMs: 5000 };
  expect(jitteredDelay(1, policy, () => 0.999)).toBe(99);
  expect(jitteredDelay(3, policy, () => 0.5)).toBe(200);
  expect(jitteredDelay(10, policy, () => 0.999)).toBe(999);
  expect(jitteredDelay(4, policy, () => 0)).toBe(0);
  expect(jitteredDelay(2, DEFAULT_BACKOFF, () => 0.5)).toBe(500);
});

test("Retry-After: delay-seconds or an HTTP date, never negative, capped", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  expect(retryAfterMs("3", now, 60_000)).toBe(3000);
  expect(retryAfterMs(" 0 ", now, 60_000)).toBe(0);
  expect(retryAfterMs("3600", now, 60_000)).toBe(60_000);
  expect(retryAfterMs("Thu, 01 Jan 2026 00:00:05 GMT", now, 60_000)).toBe(5000);
  expect(retryAfterMs("Wed, 31 Dec 2025 23:00:00 GMT", now, 60_000)).toBe(0);
  expect(retryAfterMs("soon", now, 60_000)).toBeNull();
  expect(retryAfterMs("-1", now, 60_000)).toBeNull();
  expect(retryAfterMs(null, now, 60_000)).toBeNull();
});

test("retry classes: 408, 429 and 5xx; never other 4xx or success", () => {
  for (const status of [408, 429, 500, 502, 503, 504, 599]) expect(isRetryableStatus(status)).toBe(true);
  for (const status of [200, 201, 301, 400, 401, 403, 404, 409, 410, 422]) expect(isRetryableStatus(status)).toBe(false);
});
