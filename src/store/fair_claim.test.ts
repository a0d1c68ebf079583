import { expect, test } from "bun:test";
import { takeInTurn, type DestinationQueue } from "./fair_claim.ts";

const queue = (destination: string, runs: Array<[string, number]>): DestinationQueue<{ id: string; lane: number }> => ({
  triggerId: "t",
  destination,
  runs: runs.map(([id, lane]) => ({ id, lane })),
});

test("runs are taken in turn from every destination with runs waiting, each destination's order kept", () => {
  const hung = queue("hung", [
    ["h1", 0],
    ["h2", 0],
    ["h3", 0],
    ["h4", 0],
  ]);
  const fast = queue("fast", [
    ["f1", 0],
    ["f2", 0],
  ]);
  const slow = queue("slow", [["s1", 0]]);
  expect(takeInTurn([hung, fast, slow], 5, 0).map((r) => r.id)).toEqual(["h1", "f1", "s1", "h2", "f2"]);
  // The next claim starts from another destination.
  expect(takeInTurn([hung, fast, slow], 2, 1).map((r) => r.id)).toEqual(["f1", "s1"]);
  expect(takeInTurn([hung, fast, slow], 100, 2).map((r) => r.id)).toEqual(["s1", "h1", "f1", "h2", "f2", "h3", "h4"]);
});

test("live runs before replayed ones, across destinations", () => {
  const a = queue("a", [
    ["a-live", 0],
    ["a-replay", 1],
  ]);
  const b = queue("b", [
    ["b-replay1", 1],
    ["b-replay2", 1],
  ]);
  const c = queue("c", [["c-live", 0]]);
  expect(takeInTurn([a, b, c], 4, 0).map((r) => r.id)).toEqual(["a-live", "c-live", "a-replay", "b-replay1"]);
});

test("nothing to take: nothing taken", () => {
  expect(takeInTurn([], 3, 0)).toEqual([]);
});
