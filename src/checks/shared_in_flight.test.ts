import { expect, test } from "bun:test";
import { sharedInFlight } from "./shared_in_flight.ts";

test("concurrent calls with the same key share one evaluation; others and later ones evaluate anew", async () => {
  const asked: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const shared = sharedInFlight(
    (s: string) => s,
    async (s) => (asked.push(s), await gate, s.toUpperCase()),
  );
  const answers = Promise.all([shared("a"), shared("a"), shared("b"), shared("a")]);
  release();
  expect(await answers).toEqual(["A", "A", "B", "A"]);
  expect(asked).toEqual(["a", "b"]);
  expect(await shared("a")).toBe("A");
  expect(asked).toEqual(["a", "b", "a"]);
});

test("a failure is shared by the calls waiting on it, and not remembered", async () => {
  let calls = 0;
  const shared = sharedInFlight(
    (s: string) => s,
    async () => {
      calls++;
      if (calls === 1) throw new Error("deadline");
      return "ok";
    },
  );
  const both = await Promise.all([shared("x").catch((e) => e.message), shared("x").catch((e) => e.message)]);
  expect(both).toEqual(["deadline", "deadline"]);
  expect(await shared("x")).toBe("ok");
});
