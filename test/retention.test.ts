import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore, sqlitePathIn } from "../src/store/sqlite/sqlite_store.ts";
import { startTestServer, waitFor } from "./support/server.ts";

const DAY = 86_400_000;

test("--retention-days: from the server's start on, older Activity rows and finished runs go with expired dedup keys; newer rows and live keys stay", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-retention-"));
  try {
    const setup = await startTestServer({ dataDir });
    const t = await setup.createTrigger({ name: "kept", dedup: { strategy: "payload-hash" } });
    await setup.close();

    // What a server left behind: requests 10 and 3 days old, and one from now.
    const store = new SqliteStore(sqlitePathIn(dataDir));
    const now = Date.now();
    const request = async (ageDays: number, keyHash: string, outcome: "run" | "filtered") => {
      const at = new Date(now - ageDays * DAY).toISOString();
      const id = Bun.randomUUIDv7();
      const requestId = crypto.randomUUID();
      const run =
        outcome === "run"
          ? {
              id,
              triggerId: t.id,
              requestId,
              status: "succeeded" as const,
              trigger: { body: {} },
              result: null,
              attempts: 1,
              error: null,
              createdAt: at,
              finishedAt: at,
            }
          : null;
      await store.commitIngest({
        dedup: { keyHash, windowSeconds: 3600 },
        run,
        activity: { id: Bun.randomUUIDv7(), triggerId: t.id, at, requestId, outcome, runId: run?.id ?? null, detail: null },
      });
      return id;
    };
    const old = await request(10, "old-run", "run");
    await request(10, "old-filtered", "filtered");
    const recent = await request(3, "recent", "run");
    const fresh = await request(0, "live", "run");
    await store.close();

    const server = await startTestServer({ dataDir, retentionDays: 5 });
    try {
      await waitFor("the 10-day-old run swept at start", async () => (await server.api("GET", `/api/runs/${old}`)).status === 404);
      expect((await server.api("GET", `/api/runs?triggerId=${t.id}`)).body.map((r: { id: string }) => r.id)).toEqual([fresh, recent]);
      expect((await server.activity(t.id)).map((r) => r.runId)).toEqual([fresh, recent]);
      const db = new Database(sqlitePathIn(dataDir), { readonly: true });
      expect(db.query<{ key_hash: string }, []>("SELECT key_hash FROM dedup_keys").all()).toEqual([{ key_hash: "live" }]);
      db.close();
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
