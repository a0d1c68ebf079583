import { expect, test } from "bun:test";
import { inRange, parseAddress, parseCidr } from "./cidr.ts";
import { clientAddress, formatAddress } from "./client_address.ts";

const range = (text: string) => {
  const parsed = parseCidr(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.range;
};
const addr = (text: string) => parseAddress(text)!;

test("addresses and ranges, IPv4 and IPv6, IPv4-mapped IPv6 as IPv4", () => {
  expect(inRange(addr("192.0.2.7"), range("192.0.2.0/24"))).toBe(true);
  expect(inRange(addr("192.0.3.7"), range("192.0.2.0/24"))).toBe(false);
  expect(inRange(addr("::ffff:192.0.2.7"), range("192.0.2.0/24"))).toBe(true);
  expect(inRange(addr("2001:db8:1::5"), range("2001:db8::/32"))).toBe(true);
  expect(inRange(addr("2001:db9::5"), range("2001:db8::/32"))).toBe(false);
  expect(inRange(addr("203.0.113.7"), range("203.0.113.7"))).toBe(true);
  expect(inRange(addr("203.0.113.8"), range("203.0.113.7"))).toBe(false);
  expect(inRange(addr("::1"), range("::1/128"))).toBe(true);
  expect(inRange(addr("10.1.2.3"), range("0.0.0.0/0"))).toBe(true);
  expect(inRange(addr("10.1.2.3"), range("::/0"))).toBe(false);
  expect(inRange(addr("10.0.0.130"), range("10.0.0.128/25"))).toBe(true);
  // An IPv4-mapped range keeps its IPv6 prefix length (96 + the IPv4 one).
  expect(inRange(addr("192.0.2.7"), range("::ffff:192.0.2.0/120"))).toBe(true);
  expect(inRange(addr("192.0.3.7"), range("::ffff:192.0.2.0/120"))).toBe(false);
  expect(parseCidr("::ffff:192.0.2.0/24")).toEqual({ ok: false, reason: 'the prefix length of "::ffff:192.0.2.0/24" must be 96 to 128' });
});

test("bad entries say why", () => {
  expect(parseCidr("300.1.1.1")).toEqual({ ok: false, reason: '"300.1.1.1" is not an IPv4 or IPv6 address' });
  expect(parseCidr("10.0.0.0/33")).toEqual({ ok: false, reason: 'the prefix length of "10.0.0.0/33" must be 0 to 32' });
  expect(parseCidr("example.com").ok).toBe(false);
  expect(parseCidr("1:2:3:4:5:6:7:8:9").ok).toBe(false);
  expect(parseCidr("01.2.3.4").ok).toBe(false);
});

test("X-Forwarded-For counts only behind a trusted proxy: the rightmost entry that is not one", () => {
  const proxies = [range("10.0.0.0/8")];
  expect(formatAddress(clientAddress("127.0.0.1", "203.0.113.9", [])!)).toBe("127.0.0.1");
  expect(formatAddress(clientAddress("127.0.0.1", "203.0.113.9", proxies)!)).toBe("127.0.0.1");
  expect(formatAddress(clientAddress("10.0.0.5", "198.51.100.1, 203.0.113.9, 10.0.0.7", proxies)!)).toBe("203.0.113.9");
  // Every hop a trusted proxy: the farthest one is the client, not the proxy that connected.
  expect(formatAddress(clientAddress("10.0.0.5", "10.0.0.9, 10.0.0.7", proxies)!)).toBe("10.0.0.9");
  // Ports some proxies add are not part of the address.
  expect(formatAddress(clientAddress("10.0.0.5", "203.0.113.9:4711", proxies)!)).toBe("203.0.113.9");
  expect(formatAddress(clientAddress("10.0.0.5", "[2001:db8::1]:443", proxies)!)).toBe("2001:db8::1");
  expect(clientAddress("10.0.0.5", "garbage", proxies)).toBeNull();
  expect(formatAddress(addr("2001:db8::1"))).toBe("2001:db8::1");
  expect(formatAddress(addr("::1"))).toBe("::1");
});
