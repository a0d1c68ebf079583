import { expect, test } from "bun:test";
import { replayDestinations } from "./replay_destinations.ts";

test("all destinations ticked sends no destinations: every run is replayed", () => {
  expect(replayDestinations(["crm", "audit"], ["audit", "crm"])).toEqual({});
});

test("some ticked sends their names, in the trigger's order", () => {
  expect(replayDestinations(["crm", "audit", "warehouse"], ["warehouse", "crm"])).toEqual({ destinations: ["crm", "warehouse"] });
});

test("none ticked is nothing to replay", () => {
  expect(replayDestinations(["crm", "audit"], [])).toBeNull();
});
