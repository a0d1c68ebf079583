import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer } from "./support/server.ts";

// README "Files and caching": every file inlet keeps in the data dir is its owner's only, also
// in a data dir made beforehand with a wider mode, which gets a warning at start.
const parent = mkdtempSync(join(tmpdir(), "inlet-test-owner-only-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** `mkdir -m 755 DIR`, whatever the umask. */
function openDataDir(name: string): string {
  const dir = join(parent, name);
  mkdirSync(dir);
  chmodSync(dir, 0o755);
  return dir;
}

const modes = (dir: string) => Object.fromEntries(readdirSync(dir).map((name) => [name, (statSync(join(dir, name)).mode & 0o777).toString(8)]));

/** A request that writes: a trigger and a webhook call to it (a run and Activity rows). */
async function write(server: Awaited<ReturnType<typeof startTestServer>>) {
  const trigger = await server.createTrigger({ name: "files", auth: { type: "none" } });
  const answer = await server.fetch(`/webhooks/${trigger.token}`, { method: "POST", body: '{"a":1}', headers: { "Content-Type": "application/json" } });
  expect(answer.status).toBe(200);
}

test("a server started on an existing 0755 data dir keeps every file there 0600, and warns once about the dir", async () => {
  const dataDir = openDataDir("open");
  const server = await startTestServer({ dataDir });
  try {
    await write(server);
    const files = modes(dataDir);
    for (const name of ["inlet.db", "inlet.db-wal", "inlet.db-shm", "secret.key", "serve.lock"]) expect(Object.keys(files)).toContain(name);
    for (const [name, mode] of Object.entries(files)) expect({ name, mode }).toEqual({ name, mode: "600" });
    const warned = server.warnings.filter((line) => line.includes(dataDir));
    expect(warned).toEqual([
      `warning: data dir ${dataDir} has mode 0755: group or others may list or change what is in it; make it private with: chmod 700 ${dataDir}`,
    ]);
  } finally {
    await server.close();
  }
});

test("a data dir an older inlet left with 0644 files, WAL and shared memory included, is tightened at start; a private dir gets no warning", async () => {
  const dataDir = openDataDir("older");
  const first = await startTestServer({ dataDir });
  await write(first);
  await first.close();
  chmodSync(dataDir, 0o700);
  // As a server that stopped without closing its database leaves them (empty: nothing to recover).
  for (const name of ["inlet.db-wal", "inlet.db-shm"]) writeFileSync(join(dataDir, name), "");
  for (const name of readdirSync(dataDir)) chmodSync(join(dataDir, name), 0o644);
  expect(Object.values(modes(dataDir))).toContain("644");
  const second = await startTestServer({ dataDir });
  try {
    await write(second);
    const files = modes(dataDir);
    expect(Object.keys(files)).toContain("inlet.db-wal");
    for (const [name, mode] of Object.entries(files)) expect({ name, mode }).toEqual({ name, mode: "600" });
    expect(second.warnings.filter((line) => line.includes(dataDir))).toEqual([]);
    expect((await second.api("GET", "/api/triggers")).body.map((t: { name: string }) => t.name)).toEqual(["files", "files"]);
  } finally {
    await second.close();
  }
});
