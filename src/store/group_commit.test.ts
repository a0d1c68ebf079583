import { describe, expect, test } from "bun:test";
import { AsyncGroupCommit, GroupCommit } from "./group_commit.ts";

/** For items that write nothing: there is nothing for a savepoint to undo. */
const savepoint = <T>(work: () => T) => work();

describe("GroupCommit (synchronous stores)", () => {
  test("work submitted in one turn shares one transaction; a failing item fails alone", async () => {
    const transactions: number[] = [];
    const group = new GroupCommit(
      (work) => {
        work();
        transactions.push(0); // committed (a pass that throws is rolled back)
      },
      { savepoint },
    );
    const results = await Promise.allSettled([
      group.submit(() => 1),
      group.submit(() => {
        throw new Error("bad item");
      }),
      group.submit(() => 3),
    ]);
    expect(transactions).toHaveLength(1);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });

  test("items run without savepoints; when one fails, the batch runs again with each in a savepoint", async () => {
    const log: string[] = [];
    let committed: string[] = [];
    let pending: string[] = [];
    const group = new GroupCommit(
      (work) => {
        pending = [];
        try {
          work();
        } catch (error) {
          log.push("rollback");
          throw error;
        }
        committed = [...committed, ...pending];
        log.push("commit");
      },
      {
        savepoint: (work) => {
          const mark = pending.length;
          try {
            return work();
          } catch (error) {
            pending.length = mark; // rolled back to the savepoint
            throw error;
          }
        },
      },
    );
    const write =
      (name: string, fail = false) =>
      () => {
        pending.push(`${name}:a`);
        if (fail) throw new Error(`${name} failed`);
        pending.push(`${name}:b`);
        return name;
      };
    const ok = await Promise.all([group.submit(write("x")), group.submit(write("y"))]);
    expect(ok).toEqual(["x", "y"]);
    expect(log).toEqual(["commit"]);
    const results = await Promise.allSettled([group.submit(write("p")), group.submit(write("q", true)), group.submit(write("r"))]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(log).toEqual(["commit", "rollback", "commit"]);
    expect(committed).toEqual(["x:a", "x:b", "y:a", "y:b", "p:a", "p:b", "r:a", "r:b"]);
  });

  test("with a durability step, callers are answered only once it resolves (and rejected if it fails)", async () => {
    let flushed!: () => void;
    let fail!: (error: Error) => void;
    const flushes: Array<Promise<void>> = [];
    const group = new GroupCommit((work) => work(), {
      savepoint,
      durable: () => {
        const p = new Promise<void>((resolve, reject) => ((flushed = resolve), (fail = reject)));
        flushes.push(p);
        return p;
      },
      failure: (e) => new Error(`mapped: ${(e as Error).message}`),
    });
    let answered = false;
    const first = group.submit(() => 1).then((v) => ((answered = true), v));
    await Bun.sleep(5);
    expect(flushes).toHaveLength(1);
    expect(answered).toBe(false);
    flushed();
    expect(await first).toBe(1);
    const second = group.submit(() => 2);
    await Bun.sleep(5);
    fail(new Error("EIO"));
    await expect(second).rejects.toThrow("mapped: EIO");
    await group.drain();
  });

  test("while a batch is being flushed, work gathers into one transaction committed when the flush ends", async () => {
    const transactions: number[] = [];
    const flushes: Array<() => void> = [];
    const group = new GroupCommit(
      (work) => {
        const before = counted;
        work();
        transactions.push(counted - before);
      },
      { savepoint, durable: () => new Promise<void>((resolve) => flushes.push(resolve)) },
    );
    let counted = 0;
    const item = () => group.submit(() => ++counted);
    const first = item();
    await Bun.sleep(5);
    expect(transactions).toEqual([1]);
    const rest = [item(), item()];
    await Bun.sleep(5);
    rest.push(item());
    await Bun.sleep(5);
    expect(transactions).toEqual([1]); // the first flush has not ended
    flushes[0]();
    await first;
    await Bun.sleep(5);
    expect(transactions).toEqual([1, 3]);
    flushes[1]();
    expect(await Promise.all(rest)).toEqual([2, 3, 4]);
  });

  test("a transaction that cannot commit rejects every item with the mapped error", async () => {
    const group = new GroupCommit(
      () => {
        throw new Error("disk full");
      },
      { savepoint, failure: (e) => new Error(`mapped: ${(e as Error).message}`) },
    );
    const results = await Promise.allSettled([group.submit(() => 1), group.submit(() => 2)]);
    expect(results.map((r) => (r as PromiseRejectedResult).reason.message)).toEqual(["mapped: disk full", "mapped: disk full"]);
  });
});

describe("AsyncGroupCommit (PostgreSQL)", () => {
  test("requests arriving while a batch commits gather into the next batch", async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const group = new AsyncGroupCommit<number, number>(
      async (items) => {
        batches.push(items);
        if (batches.length === 1) await gate;
        return items.map((n) => n * 10);
      },
      256,
      1,
    );
    const first = group.submit(1);
    await Bun.sleep(5);
    // The first batch is committing: these wait, together.
    const rest = [2, 3, 4].map((n) => group.submit(n));
    await Bun.sleep(5);
    expect(batches).toEqual([[1]]);
    release();
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  test("batches are capped at maxBatch and at most maxInFlight commit at once", async () => {
    let inFlight = 0;
    let most = 0;
    const sizes: number[] = [];
    const group = new AsyncGroupCommit<number, number>(
      async (items) => {
        inFlight++;
        most = Math.max(most, inFlight);
        sizes.push(items.length);
        await Bun.sleep(2);
        inFlight--;
        return items;
      },
      4,
      2,
    );
    const all = await Promise.all(Array.from({ length: 20 }, (_, i) => group.submit(i)));
    expect(all).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4);
    expect(most).toBe(2);
    await group.drain();
  });

  test("a failed commit rejects exactly its batch; the next batch still commits", async () => {
    let calls = 0;
    const group = new AsyncGroupCommit<string, string>(async (items) => {
      calls++;
      if (calls === 1) throw new Error("connection lost");
      return items.map((s) => s.toUpperCase());
    });
    const failed = await Promise.allSettled([group.submit("a"), group.submit("b")]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await group.submit("c")).toBe("C");
  });
});
