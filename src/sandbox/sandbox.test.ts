import { describe, expect, test } from "bun:test";
import { ExactNumber } from "../json/index.ts";
import { exceedsDepth, GuestUnit, MAX_NESTING_DEPTH, Sandbox, SandboxError, SandboxMemory, SandboxTimeout } from "./index.ts";
import { fixtureGuest } from "./testdata/fixture.ts";
import { thrown } from "../../test/support/values.ts";

const sandbox = await Sandbox.create();
const regex = (source: string) => new GuestUnit(fixtureGuest, "compileRegex", JSON.stringify(source));
const testRegex = (box: Sandbox, unit: GuestUnit, input: string) => box.call(fixtureGuest, "test", [unit, JSON.stringify(input)]) === "1";

describe("Sandbox", () => {
  test("strings cross intact both ways, multi-byte and 64 KB included", () => {
    for (const text of ["", "plain", 'é ü ß 中文 🙂 "quoted" \\ \n', "x".repeat(65_536) + "🙂"]) {
      expect(sandbox.call(fixtureGuest, "echo", [text])).toBe(text);
    }
  });

  test("a string holding U+0000 is refused before it could be cut short", () => {
    expect(thrown(() => sandbox.call(fixtureGuest, "echo", ["a\0b"]))).toBeInstanceOf(TypeError);
    expect(sandbox.call(fixtureGuest, "echo", [JSON.stringify("a\0b")])).toBe('"a\\u0000b"');
  });

  test("catastrophic backtracking ends at the deadline and the sandbox stays usable", () => {
    const unit = regex("^(a+)+$");
    const started = performance.now();
    const error = thrown(() => testRegex(sandbox, unit, "a".repeat(40) + "!"));
    expect(error).toBeInstanceOf(SandboxTimeout);
    expect((error as SandboxError).code).toBe("sandbox_timeout");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(testRegex(sandbox, unit, "aaaa")).toBe(true);
    expect(testRegex(sandbox, unit, "aaab")).toBe(false);
  });

  test("while one evaluation is stuck, the ones after it answer correctly", () => {
    const email = regex("^e-?mail$");
    expect(thrown(() => sandbox.call(fixtureGuest, "spin", []))).toBeInstanceOf(SandboxTimeout);
    expect(testRegex(sandbox, email, "E-Mail")).toBe(true);
    expect(thrown(() => testRegex(sandbox, regex("(x+x+)+y"), "x".repeat(5000)))).toBeInstanceOf(SandboxTimeout);
    expect(testRegex(sandbox, email, "mail")).toBe(false);
    expect(sandbox.call(fixtureGuest, "echo", ["after"])).toBe("after");
  });

  test("a deadline can be shared by several calls", () => {
    const unit = regex("^(a+)+$");
    const input = "a".repeat(12) + "!"; // well under a millisecond of backtracking per call
    // Room for many calls even on a loaded machine; the point is that together they stop at it.
    const deadline = sandbox.deadline(300);
    let calls = 0;
    const error = thrown(() => {
      for (;;) {
        sandbox.call(fixtureGuest, "test", [unit, JSON.stringify(input)], deadline);
        calls++;
      }
    });
    expect(error).toBeInstanceOf(SandboxTimeout);
    expect(calls).toBeGreaterThan(1);
    expect(performance.now()).toBeLessThan(deadline.at + 5000);
    expect(thrown(() => sandbox.call(fixtureGuest, "spin", [], deadline))).toBeInstanceOf(SandboxTimeout);
  });

  test("filling the heap gives SandboxMemory, and the sandbox answers next", async () => {
    const small = await Sandbox.create({ memoryBytes: 8 * 1024 * 1024, deadlineMs: 10_000 });
    const started = performance.now();
    const error = thrown(() => small.call(fixtureGuest, "hoard", []));
    expect(error).toBeInstanceOf(SandboxMemory);
    expect((error as SandboxMemory).resource).toBe("heap");
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(small.call(fixtureGuest, "echo", ["still here"])).toBe("still here");
    expect(small.replacements).toBe(0);
  });

  test("a heap that stays full after the error is replaced by a fresh module", async () => {
    const small = await Sandbox.create({ memoryBytes: 8 * 1024 * 1024, deadlineMs: 10_000 });
    expect(thrown(() => small.call(fixtureGuest, "leak", []))).toBeInstanceOf(SandboxMemory);
    expect(small.replacements).toBe(1);
    expect(small.call(fixtureGuest, "echo", ["fresh"])).toBe("fresh");
  });

  test("runaway recursion reaches the stack limit instead of aborting the process", () => {
    const error = thrown(() => sandbox.call(fixtureGuest, "recurse", []));
    expect(error).toBeInstanceOf(SandboxMemory);
    expect((error as SandboxMemory).resource).toBe("stack");
    expect(sandbox.call(fixtureGuest, "echo", ["ok"])).toBe("ok");
  });

  test("JSON nested far deeper than the cap fails cleanly, whether QuickJS or the host stack gives out first", async () => {
    // Which one gives out first varies with JIT tiers; a host-side overflow corrupts the
    // module, which is then swapped for the standby (code "sandbox_crashed").
    for (const depth of [20_000, 100_000]) {
      const before = sandbox.replacements;
      const error = thrown(() => sandbox.call(fixtureGuest, "roundTrip", ["[".repeat(depth) + "]".repeat(depth)]));
      expect(error).toBeInstanceOf(SandboxError);
      const { code } = error as SandboxError;
      expect(["sandbox_memory", "sandbox_crashed"]).toContain(code);
      expect(sandbox.replacements).toBe(before + (code === "sandbox_crashed" ? 1 : 0));
      expect(sandbox.call(fixtureGuest, "echo", ["alive"])).toBe("alive");
      await sandbox.ready();
    }
  });

  test("a guest exception is a SandboxError with the guest's message", () => {
    const error = thrown(() => sandbox.call(fixtureGuest, "fail", ["bad input"]));
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).not.toBeInstanceOf(SandboxTimeout);
    expect((error as SandboxError).code).toBe("sandbox_guest_error");
    expect((error as SandboxError).message).toBe("TypeError: bad input");
    expect((thrown(() => sandbox.call(fixtureGuest, "missing", [])) as SandboxError).code).toBe("sandbox_guest_error");
  });

  test("compiled units are kept in a bounded LRU and recompiled after eviction", async () => {
    const box = await Sandbox.create({ maxUnits: 3 });
    const units = ["^a", "^b", "^c", "^d", "^e"].map(regex);
    for (const unit of units) expect(testRegex(box, unit, unit.source.slice(2, 3))).toBe(true);
    expect(box.compiledUnits).toBe(3);
    expect(testRegex(box, units[0], "a")).toBe(true);
    expect(testRegex(box, units[0], "b")).toBe(false);
    expect(box.compiledUnits).toBe(3);
    box.configure({ maxUnits: 1 });
    expect(box.compiledUnits).toBe(1);
  });

  test("limits are checked", async () => {
    expect(Sandbox.create({ maxStackBytes: 1024 * 1024 })).rejects.toThrow(/at most 262144/);
    expect(() => sandbox.configure({ deadlineMs: 0 })).toThrow(/positive/);
    expect(sandbox.limits.deadlineMs).toBe(50);
  });

  test("nesting depth is measured in containers, arrays included", () => {
    const nest = (depth: number) => {
      let value: unknown = "leaf";
      for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { v: value };
      return value;
    };
    expect(exceedsDepth(nest(MAX_NESTING_DEPTH))).toBe(false);
    expect(exceedsDepth(nest(MAX_NESTING_DEPTH + 1))).toBe(true);
    expect(exceedsDepth({ a: 1, b: [[[]]] }, 4)).toBe(false);
    expect(exceedsDepth({ a: 1, b: [[[]]] }, 3)).toBe(true);
    expect(exceedsDepth("text", 0)).toBe(false);
  });

  test("a number a double cannot hold (an ExactNumber) is a number, not a container", () => {
    expect(exceedsDepth({ a: [new ExactNumber("9007199254740993")] }, 2)).toBe(false);
    expect(exceedsDepth(new ExactNumber("1e400"), 0)).toBe(false);
  });
});
