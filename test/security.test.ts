import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_TRIGGER_BODY_BYTES } from "../src/records/trigger_schemas.ts";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "./support/server.ts";

/**
 * Security review findings, each proven against a running server: what an unauthenticated caller
 * must not be able to make the server do, and what other local users must not be able to read.
 */
let server: TestServer;
const parent = mkdtempSync(join(tmpdir(), "inlet-test-security-"));
const dataDir = join(parent, "fresh", "data");

beforeAll(async () => {
  server = await startTestServer({ dataDir });
});

afterAll(async () => {
  await server?.close();
  rmSync(parent, { recursive: true, force: true });
});

/** An endless chunked body that counts what the server pulled from it. */
function endlessBody(): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  let bytes = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      bytes += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { body, pulled: () => bytes };
}

test("an unauthenticated call to the API gets its 401 without the server buffering its body", async () => {
  for (const [method, path, status] of [
    ["POST", "/api/triggers", 401],
    ["PATCH", "/api/triggers/x", 401],
    ["POST", "/api/check", 401],
    ["POST", "/healthz", 405],
  ] as const) {
    const { body, pulled } = endlessBody();
    const answer = await server.fetch(path, { method, body, headers: { Authorization: "Bearer wrong" }, duplex: "half" } as RequestInit);
    // Before: the front door read up to 100 MiB of any caller's body into memory (then 413).
    expect({ path, status: answer.status }).toEqual({ path, status });
    expect(pulled()).toBeLessThan(4 * 1024 * 1024);
  }
});

test("the admin's calls still have their bodies read, and bounded: an endless one is a 413 once past the limit", async () => {
  const created = await server.api("POST", "/api/triggers", { name: "bounded" });
  expect(created.status).toBe(201);
  const { body, pulled } = endlessBody();
  const answer = await server.fetch("/api/check", { method: "POST", body, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` }, duplex: "half" } as RequestInit);
  expect(answer.status).toBe(413);
  expect(await answer.json()).toMatchObject({ error: "payload too large" });
  expect(pulled()).toBeLessThan(MAX_TRIGGER_BODY_BYTES + 4 * 1024 * 1024);
});

test("a data dir inlet creates is private to its owner (the directory, so the database and WAL inside; and the key file)", () => {
  expect(statSync(dataDir).mode & 0o077).toBe(0);
  expect(statSync(join(dataDir, "secret.key")).mode & 0o077).toBe(0);
});

test("a JSON body with a duplicate key never leaves a field redaction would have caught in the stored run", async () => {
  const t = await server.createTrigger({ name: "duplicate-keys", redaction: { enabled: true, patterns: ["^password$"] } });
  // JSON.parse keeps the last "user", so redaction sees no password; the text as received still holds it.
  const body = '{"user":{"password":"hunter2"},"user":{"name":"jane"}}';
  const answer = await server.fetch(`/webhooks/${t.token}`, { method: "POST", body, headers: { "Content-Type": "application/json" } });
  expect(answer.status).toBe(200);
  const [run] = (await server.api("GET", `/api/runs?triggerId=${t.id}&include=trigger`)).body;
  expect(run.trigger.body).toEqual({ user: { name: "jane" } });
  const db = new Database(join(dataDir, "inlet.db"), { readonly: true });
  try {
    const stored = db.query<{ trigger_json: string }, [string]>("SELECT * FROM runs WHERE trigger_id = ?").all(t.id);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain("hunter2");
  } finally {
    db.close();
  }
});
