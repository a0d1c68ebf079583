import { expect, test } from "bun:test";
import { every } from "./every.ts";

/** A task whose runs are counted and whose current run ends when told to. */
function gatedTask() {
  const state = { runs: 0, concurrent: 0, maxConcurrent: 0, release: () => {} };
  const task = async () => {
    state.runs++;
    state.concurrent++;
    state.maxConcurrent = Math.max(state.maxConcurrent, state.concurrent);
    await new Promise<void>((resolve) => (state.release = resolve));
    state.concurrent--;
  };
  return { state, task };
}

test("ticks run the task; a tick while it runs is skipped, never overlapping", async () => {
  const { state, task } = gatedTask();
  const loop = every(5, task);
  await Bun.sleep(40); // several ticks while the first run waits
  expect(state.runs).toBe(1);
  state.release();
  await Bun.sleep(30);
  expect(state.runs).toBeGreaterThan(1);
  expect(state.maxConcurrent).toBe(1);
  state.release();
  const stopping = loop.stop();
  state.release();
  await stopping;
});

test("now() runs at once; while a run is going, once more right after it, shared by every caller", async () => {
  const { state, task } = gatedTask();
  const loop = every(60_000, task);
  const first = loop.now();
  expect(state.runs).toBe(1);
  const second = loop.now();
  const third = loop.now();
  expect(second).toBe(third);
  state.release();
  await first;
  await Bun.sleep(0);
  expect(state.runs).toBe(2);
  state.release();
  await second;
  expect(state.maxConcurrent).toBe(1);
  await loop.stop();
});

test("a failing run goes to onError and the loop goes on; stop() waits for the run in progress", async () => {
  const errors: unknown[] = [];
  let runs = 0;
  const loop = every(
    5,
    async () => {
      runs++;
      if (runs === 1) throw new Error("boom");
      await Bun.sleep(20);
    },
    { immediately: true, onError: (e) => errors.push((e as Error).message) },
  );
  await Bun.sleep(15);
  expect(errors).toEqual(["boom"]);
  expect(runs).toBeGreaterThanOrEqual(2);
  await loop.stop();
  const after = runs;
  await Bun.sleep(30);
  expect(runs).toBe(after);
  await loop.now();
  expect(runs).toBe(after);
});
