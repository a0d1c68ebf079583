import { expect, test } from "bun:test";
import { DedupIndex, EXPIRED_KEPT_MS } from "./dedup_index.ts";

const T0 = Date.UTC(2026, 10, 25);

test("a key added is a candidate until it expires; an unseen key is none", () => {
  const index = new DedupIndex();
  index.add("t1\u0000k1", T0 + 1000, T0);
  expect(index.candidates("t1\u0000k1", T0)).toEqual([T0 + 1000]);
  expect(index.candidates("t1\u0000k1", T0 + 999)).toEqual([T0 + 1000]);
  expect(index.candidates("t1\u0000k1", T0 + 1000)).toEqual([]);
  expect(index.candidates("t1\u0000k2", T0)).toEqual([]);
  expect(index.candidates("t2\u0000k1", T0)).toEqual([]);
});

test("keys that share a fingerprint are all candidates, each with its own expiry, for the store to tell apart", () => {
  const index = new DedupIndex(() => 0xdead_beef_0000_0001n);
  index.add("a", T0 + 10, T0);
  index.add("b", T0 + 20, T0);
  index.add("c", T0 + 5, T0);
  expect([...index.candidates("anything", T0)].sort()).toEqual([T0 + 5, T0 + 10, T0 + 20]);
  expect([...index.candidates("anything", T0 + 7)].sort()).toEqual([T0 + 10, T0 + 20]);
});

test("fingerprints equal in their low half but not their high half are different keys", () => {
  const index = new DedupIndex((key) => (key === "a" ? 0x1_0000_0007n : 0x2_0000_0007n));
  index.add("a", T0 + 10, T0);
  expect(index.candidates("a", T0)).toEqual([T0 + 10]);
  expect(index.candidates("b", T0)).toEqual([]);
});

test("growing keeps every live key; a rebuild drops only keys expired longer than the slack", () => {
  const index = new DedupIndex();
  const n = 5000;
  // The first thousand expire at once, the rest an hour on.
  for (let i = 0; i < n; i++) index.add(`t\u0000${i}`, i < 1000 ? T0 + 1 : T0 + 3_600_000, T0);
  expect(index.size).toBe(n);
  expect(index.capacity).toBeGreaterThanOrEqual(2 * n);
  for (let i = 0; i < n; i++) expect(index.candidates(`t\u0000${i}`, T0)).toHaveLength(1);

  // Claims made just after the first thousand expired: a rebuild keeps them (a request that
  // arrived before their expiry may still be judged against them).
  const justAfter = T0 + 2;
  let i = n;
  const capacity = index.capacity;
  while (index.capacity === capacity) index.add(`t\u0000${i++}`, justAfter + 3_600_000, justAfter);
  expect(index.size).toBe(i);
  expect(index.candidates("t\u00000", T0)).toEqual([T0 + 1]);

  // Long after: the next rebuild drops them, and only them.
  const later = T0 + 1 + EXPIRED_KEPT_MS + 1;
  for (;;) {
    const sizeBefore = index.size;
    index.add(`t\u0000${i++}`, later + 3_600_000, later);
    if (index.size !== sizeBefore + 1) break;
  }
  expect(index.size).toBe(i - 1000);
  expect(index.candidates("t\u00000", T0)).toEqual([]);
  for (let k = 1000; k < i; k += 97) expect(index.candidates(`t\u0000${k}`, later)).toHaveLength(1);
});

test("a table of expired keys shrinks back when rebuilt", () => {
  const index = new DedupIndex();
  for (let i = 0; i < 30_000; i++) index.add(`t\u0000${i}`, T0 + 1, T0);
  const big = index.capacity;
  const later = T0 + 1 + EXPIRED_KEPT_MS + 1;
  let i = 0;
  for (;;) {
    const sizeBefore = index.size;
    index.add(`u\u0000${i++}`, later + 60_000, later);
    if (index.size !== sizeBefore + 1) break;
  }
  expect(index.size).toBe(i);
  expect(index.capacity).toBeLessThan(big);
  for (let k = 0; k < i; k += 7) expect(index.candidates(`u\u0000${k}`, later)).toEqual([later + 60_000]);
  expect(index.candidates("t\u00000", T0)).toEqual([]);
});

test("an expiry that is not a positive epoch time is refused", () => {
  const index = new DedupIndex();
  expect(() => index.add("k", 0, T0)).toThrow(RangeError);
  expect(() => index.add("k", Number.NaN, T0)).toThrow(RangeError);
});

test("its bytes grow with its table", () => {
  const index = new DedupIndex();
  const empty = index.bytes;
  for (let i = 0; i < 10_000; i++) index.add(`key-${i}`, 2_000_000_000_000, 1_000_000_000_000);
  expect(index.bytes).toBeGreaterThan(empty);
  expect(index.capacity).toBeGreaterThanOrEqual(index.size * 2);
});
