import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storeContract } from "../../../test/store/store_contract.ts";
import { Database } from "bun:sqlite";
import { SchemaTooNew } from "../errors.ts";
import { MIGRATIONS } from "./migrations.ts";
import { SqliteStore } from "./sqlite_store.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
storeContract("sqlite", async () => new SqliteStore(join(dir, `db-${n++}.sqlite`)));

test("migrations apply once: reopening keeps data and schema", async () => {
  const path = join(dir, "reopen.sqlite");
  const a = new SqliteStore(path);
  await a.setMeta("kept", "yes");
  await a.close();
  const b = new SqliteStore(path);
  expect(await b.getMeta("kept")).toBe("yes");
  await b.close();
});

test("a database migrated by a newer inlet is refused, not written to", async () => {
  const path = join(dir, "newer.sqlite");
  const first = new SqliteStore(path);
  expect(first.applied).toEqual(MIGRATIONS.map((m) => m.version));
  await first.close();
  const db = new Database(path);
  db.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from the future', '2030-01-01')");
  db.close();
  expect(() => new SqliteStore(path)).toThrow(SchemaTooNew);
  expect(() => new SqliteStore(path)).toThrow(new RegExp(`schema version 99, newer than this inlet knows \\(${MIGRATIONS.at(-1)!.version}\\)`));
});

test("a closed store refuses work with StoreUnavailable", async () => {
  const s = new SqliteStore(join(dir, "closed.sqlite"));
  await s.close();
  expect(await s.ping()).toBe(false);
  await expect(s.getMeta("x")).rejects.toThrow("closed");
});
