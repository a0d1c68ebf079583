import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import type { IngestRecord } from "../../records/ingest.ts";
import { MIGRATIONS } from "./migrations.ts";
import { SqliteStore } from "./sqlite_store.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-dedup-keys-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (options?: ConstructorParameters<typeof SqliteStore>[1]) => new SqliteStore(join(dir, `db-${n++}.sqlite`), options);

const at = new Date();
/** An accepted request claiming `key`, its run id `runId` (a repeated run id makes the item fail). */
const ingest = (key: string, runId: string, when = at, windowSeconds = 60): IngestRecord => ({
  dedup: { keyHash: key, windowSeconds },
  run: {
    id: runId,
    triggerId: "t",
    requestId: runId,
    status: "succeeded",
    trigger: { body: {} },
    result: null,
    attempts: 1,
    error: null,
    createdAt: when.toISOString(),
    finishedAt: when.toISOString(),
  },
  activity: { id: `a-${runId}-${n++}`, triggerId: "t", at: when.toISOString(), requestId: runId, outcome: "run", runId, detail: null },
});
const outcome = (s: SqliteStore, record: IngestRecord) =>
  s.commitIngest(record).then(
    ({ deduplicated }) => (deduplicated ? "deduplicated" : "new"),
    () => "failed",
  );

test("a key claimed by an item that failed is free for a later item of the same batch", async () => {
  const s = fresh();
  await s.commitIngest(ingest("k0", "run-1"));
  // One batch: the first claims k1 and then fails (its run id is taken); the second claims k1.
  const results = await Promise.all([outcome(s, ingest("k1", "run-1")), outcome(s, ingest("k1", "run-2"))]);
  expect(results).toEqual(["failed", "new"]);
  expect(await outcome(s, ingest("k1", "run-3"))).toBe("deduplicated");
  await s.close();
});

test("a failed claim of a key takes back only its own: an earlier claim of the same key in the batch stays in force", async () => {
  const s = fresh();
  await s.commitIngest(ingest("k0", "taken"));
  const later = (ms: number) => new Date(at.getTime() + ms);
  // One batch: A claims k for 1 s; B arrives after A's window and claims k again, then fails.
  const results = await Promise.all([outcome(s, ingest("k", "run-a", at, 1)), outcome(s, ingest("k", "taken", later(1500)))]);
  expect(results).toEqual(["new", "failed"]);
  // A's claim holds within its second.
  expect(await s.hasDedupKey("t", "k", later(500))).toBe(true);
  expect(await outcome(s, ingest("k", "run-c", later(500)))).toBe("deduplicated");
  await s.close();
});

// In the same millisecond (one expiry), and each a millisecond after the last (each would expire at its own time).
for (const [when, spacingMs] of [
  ["in the same millisecond", 0],
  ["a millisecond apart", 1],
] as const)
  test(`identical claims in one batch, ${when}: the first is new, the rest duplicates`, async () => {
    const s = fresh();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => outcome(s, ingest("same", `run-${i}`, new Date(at.getTime() + i * spacingMs)))));
    expect(results.filter((r) => r === "new")).toHaveLength(1);
    expect(results.filter((r) => r === "deduplicated")).toHaveLength(19);
    await s.close();
  });

test("keys survive a restart: the index is loaded from their rows", async () => {
  const path = join(dir, "restart.sqlite");
  const first = new SqliteStore(path);
  expect(await outcome(first, ingest("kept", "run-1"))).toBe("new");
  await first.close();
  const second = new SqliteStore(path);
  expect(await second.hasDedupKey("t", "kept", at)).toBe(true);
  // A later arrival (its own expiry): the row alone would not make it a duplicate, the index does.
  expect(await outcome(second, ingest("kept", "run-2", new Date(at.getTime() + 1)))).toBe("deduplicated");
  expect(await outcome(second, ingest("other", "run-3"))).toBe("new");
  await second.close();
});

test("keys whose fingerprints collide are told apart by their rows", async () => {
  const s = fresh({ fingerprint: () => 7n });
  expect(await outcome(s, ingest("a", "run-a"))).toBe("new");
  expect(await outcome(s, ingest("b", "run-b"))).toBe("new");
  expect(await s.hasDedupKey("t", "c", at)).toBe(false);
  expect(await s.hasDedupKey("t", "a", at)).toBe(true);
  expect(await outcome(s, ingest("a", "run-a2", new Date(at.getTime() + 1)))).toBe("deduplicated");
  expect(await outcome(s, ingest("b", "run-b2", new Date(at.getTime() + 2)))).toBe("deduplicated");
  await s.close();
});

test("an expired key is claimed again, and its old row swept", async () => {
  const s = fresh();
  const later = new Date(at.getTime() + 61_000);
  expect(await outcome(s, ingest("k", "run-1"))).toBe("new");
  expect(await outcome(s, ingest("k", "run-2", later))).toBe("new");
  expect(await outcome(s, ingest("k", "run-3", later))).toBe("deduplicated");
  const swept = await s.sweep(new Date(at.getTime() + 60_500), new Date(0));
  expect(swept.dedupKeys).toBe(1);
  expect(await s.hasDedupKey("t", "k", later)).toBe(true);
  await s.close();
});

test("a database from before migration 10 keeps its live keys", async () => {
  const path = join(dir, "schema-9.sqlite");
  const db = new Database(path, { create: true });
  db.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
  for (const m of MIGRATIONS.filter((m) => m.version < 10)) {
    db.exec(m.sql);
    db.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", [m.version, m.name, at.toISOString()]);
  }
  db.run("INSERT INTO dedup_keys (trigger_id, key_hash, expires_ms) VALUES ('t', 'old-live', ?), ('t', 'old-expired', ?)", [
    at.getTime() + 60_000,
    at.getTime() - 1,
  ]);
  db.close();
  const s = new SqliteStore(path);
  expect(s.applied).toEqual(MIGRATIONS.filter((m) => m.version >= 10).map((m) => m.version));
  expect(await s.hasDedupKey("t", "old-live", at)).toBe(true);
  expect(await s.hasDedupKey("t", "old-expired", at)).toBe(false);
  expect(await outcome(s, ingest("old-live", "run-1", new Date(at.getTime() + 1)))).toBe("deduplicated");
  expect(await outcome(s, ingest("old-expired", "run-2"))).toBe("new");
  await s.close();
});
