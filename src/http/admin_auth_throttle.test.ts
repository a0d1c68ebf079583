import { expect, test } from "bun:test";
import { parseAddress } from "../net/cidr.ts";
import { AdminAuthThrottle, FAILED_AUTH_LIMIT } from "./admin_auth_throttle.ts";

const MINUTE = 60_000;
const address = (text: string) => parseAddress(text)!;

test("20 failures a minute from one address are answered as usual; the rest of that minute get 429 with Retry-After to the minute's end", async () => {
  let now = 100 * MINUTE + 15_500;
  const throttle = new AdminAuthThrottle(() => now);
  for (let i = 0; i < FAILED_AUTH_LIMIT; i++) expect(throttle.failed(address("203.0.113.9"))).toBeNull();
  const refused = throttle.failed(address("203.0.113.9"))!;
  expect(refused.status).toBe(429);
  expect(await refused.json()).toEqual({ error: "too many requests" });
  // 44.5 s left in the minute: rounded up, so a client that waits that long is past the block.
  expect(refused.headers.get("retry-after")).toBe("45");
  now = 101 * MINUTE - 200;
  expect(throttle.failed(address("203.0.113.9"))!.headers.get("retry-after")).toBe("1");
  // Another address is counted on its own.
  expect(throttle.failed(address("203.0.113.10"))).toBeNull();
  // The next clock minute starts afresh.
  now = 101 * MINUTE;
  for (let i = 0; i < FAILED_AUTH_LIMIT; i++) expect(throttle.failed(address("203.0.113.9"))).toBeNull();
  expect(throttle.failed(address("203.0.113.9"))?.status).toBe(429);
});

test("requests of unknown address share one counter", () => {
  const throttle = new AdminAuthThrottle(() => 0);
  for (let i = 0; i < FAILED_AUTH_LIMIT; i++) expect(throttle.failed(null)).toBeNull();
  expect(throttle.failed(null)?.status).toBe(429);
  expect(throttle.failed(address("::1"))).toBeNull();
});

test("memory is bounded: only the current minute is kept, and addresses past the cap share one counter", () => {
  let now = 0;
  const throttle = new AdminAuthThrottle(() => now, 2, 100);
  for (let i = 0; i < 100; i++) expect(throttle.failed(address(`10.0.0.${i}`))).toBeNull();
  // Past the cap, new addresses are counted together: two more failures pass, the third is refused.
  expect(throttle.failed(address("10.0.1.1"))).toBeNull();
  expect(throttle.failed(address("10.0.1.2"))).toBeNull();
  expect(throttle.failed(address("10.0.1.3"))?.status).toBe(429);
  for (let i = 0; i < 1000; i++) throttle.failed(address(`10.1.${i >> 8}.${i & 255}`));
  expect(throttle.size).toBe(101);
  // Addresses counted before the cap keep their own count.
  expect(throttle.failed(address("10.0.0.1"))).toBeNull();
  now = MINUTE;
  expect(throttle.failed(address("10.0.1.3"))).toBeNull();
  expect(throttle.size).toBe(1);
});
