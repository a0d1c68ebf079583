import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, spawnServer, type ServerProcess } from "./support/process.ts";
import { rawHttp } from "./support/raw_http.ts";
import { waitFor } from "./support/server.ts";

/**
 * The bad-input corpus (docs/api.md#edge-refusals): requests the HTTP layer used to refuse with a bare status
 * or no answer, sent to a started server as the README starts it (Bun's parser limit raised), with
 * raw sockets where a client library would refuse to send them. Every answer is the contract's
 * JSON with X-Request-Id; a request to a known token leaves its Activity row. Grows with every bug.
 */
const ADMIN = "edge-admin-token-0123456789abcdef";
const dataDir = mkdtempSync(join(tmpdir(), "inlet-test-edge-"));
let server: ServerProcess;
let token: string;
let triggerId: string;
let host: string;
let port: number;

beforeAll(async () => {
  server = await spawnServer([BUN, "run", "src/main.ts"], ["--data-dir", dataDir, "--idle-timeout", "1", "--log-requests", "false"], {
    env: { INLET_ADMIN_TOKEN: ADMIN },
  });
  const url = new URL(server.url);
  host = url.hostname;
  port = Number(url.port);
  const created = await createTrigger({ name: "edge" });
  token = created.token;
  triggerId = created.id;
});
afterAll(async () => {
  server.proc.kill("SIGKILL");
  await server.proc.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

const raw = (bytes: string | Uint8Array, ms = 5000) => rawHttp({ host, port }, bytes, ms);

/** Parses a raw answer and checks the contract's shape: the status, JSON `{error, request_id}`, `X-Request-Id` equal to it. */
function expectShape(answer: string, status: number, error: string) {
  const [head, body] = [answer.slice(0, answer.indexOf("\r\n\r\n")), answer.slice(answer.indexOf("\r\n\r\n") + 4)];
  expect(head.split("\r\n")[0]).toBe(`HTTP/1.1 ${status} ${head.split("\r\n")[0].split(" ").slice(2).join(" ")}`);
  const id = /x-request-id: ([0-9a-f-]{36})/i.exec(head)?.[1];
  expect(id).toBeDefined();
  expect(JSON.parse(body)).toEqual({ error, request_id: id });
}

const admin = { Authorization: `Bearer ${ADMIN}` };
const activity = async (id = triggerId) =>
  (await (await fetch(`${server.url}/api/triggers/${id}/activity?limit=500`, { headers: admin })).json()) as Array<{
    outcome: string;
    detail: string | null;
    requestId: string;
  }>;
const createTrigger = async (input: Record<string, unknown>) =>
  (await (
    await fetch(`${server.url}/api/triggers`, { method: "POST", headers: { ...admin, "Content-Type": "application/json" }, body: JSON.stringify(input) })
  ).json()) as { id: string; token: string };
const requestIdOf = (answer: string) => /x-request-id: (\S+)/i.exec(answer)![1];

test("a body declared larger than Bun's default limit gets the contract's 413", async () => {
  expectShape(await raw(`POST /webhooks/${token} HTTP/1.1\r\nHost: edge\r\nContent-Length: 52428800\r\n\r\n{}`), 413, "payload too large");
});

test("large header values, long tokens and long URLs: 431 and 414 in the contract's shape", async () => {
  expectShape(
    await raw(`POST /webhooks/${token} HTTP/1.1\r\nHost: edge\r\nX-Big: ${"a".repeat(65_536)}\r\nContent-Length: 2\r\n\r\n{}`),
    431,
    "request header fields too large",
  );
  expectShape(
    await raw(`POST /webhooks/${token} HTTP/1.1\r\nHost: edge\r\nX-Big: ${"a".repeat(1024 * 1024)}\r\nContent-Length: 2\r\n\r\n{}`),
    431,
    "request header fields too large",
  );
  expectShape(await raw(`POST /webhooks/${"a".repeat(65_536)} HTTP/1.1\r\nHost: edge\r\nContent-Length: 2\r\n\r\n{}`), 414, "uri too long");
});

test("a 431 or 414 to a known token leaves one rejected Activity row under the answer's request id", async () => {
  const tooLarge = requestIdOf(await raw(`POST /webhooks/${token} HTTP/1.1\r\nHost: edge\r\nX-Big: ${"a".repeat(65_536)}\r\nContent-Length: 2\r\n\r\n{}`));
  const tooLong = requestIdOf(await raw(`POST /webhooks/${token}?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: edge\r\nContent-Length: 2\r\n\r\n{}`));
  // A refusal's row is written after its answer: wait for it.
  const rowsFor = (requestId: string) =>
    waitFor(`the row of ${requestId}`, async () => {
      const rows = (await activity()).filter((r) => r.requestId === requestId);
      return rows.length > 0 && rows;
    });
  expect(await rowsFor(tooLong)).toEqual([expect.objectContaining({ outcome: "rejected", detail: "refused before routing: uri too long" })]);
  expect(await rowsFor(tooLarge)).toEqual([
    expect.objectContaining({ outcome: "rejected", detail: "refused before routing: request header fields too large" }),
  ]);
});

test("an empty token and unknown paths are 404 with a request id", async () => {
  expectShape(await raw(`POST /webhooks/ HTTP/1.1\r\nHost: edge\r\nContent-Length: 2\r\n\r\n{}`), 404, "not found");
  expectShape(await raw(`GET /nothing/here HTTP/1.1\r\nHost: edge\r\n\r\n`), 404, "not found");
});

test("a known path asked with a method it does not answer is 405 with Allow, in the webhook path's shape; unknown paths stay 404", async () => {
  const cases: Array<[string, string, string]> = [
    ["DELETE", "/metrics", "GET, HEAD"],
    ["POST", "/healthz", "GET, HEAD"],
    ["PUT", "/api/triggers", "GET, HEAD, POST"],
    ["POST", `/api/triggers/${triggerId}/secret`, "GET, HEAD"],
    ["PUT", "/", "GET, HEAD"],
  ];
  for (const [method, path, allow] of cases) {
    const answer = await raw(`${method} ${path} HTTP/1.1\r\nHost: edge\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    expectShape(answer, 405, "method not allowed");
    expect({ method, path, allow: /\r\nallow: ([^\r]*)/i.exec(answer)?.[1] }).toEqual({ method, path, allow });
  }
  expectShape(await raw(`DELETE /nothing/here HTTP/1.1\r\nHost: edge\r\nConnection: close\r\n\r\n`), 404, "not found");
  // The webhook path keeps its own rules: an unknown token is 404 whatever the method.
  expectShape(await raw(`PUT /webhooks/nope HTTP/1.1\r\nHost: edge\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`), 404, "not found");
});

test("a body declared larger than any limit, Bun's own included, gets the contract's 413, to a trigger or to any other route", async () => {
  const huge = 5 * 1024 * 1024 * 1024;
  expectShape(await raw(`POST /webhooks/${token} HTTP/1.1\r\nHost: edge\r\nContent-Length: ${huge}\r\n\r\n{}`), 413, "payload too large");
  const api = await raw(`POST /api/triggers HTTP/1.1\r\nHost: edge\r\nAuthorization: Bearer ${ADMIN}\r\nContent-Length: ${huge}\r\n\r\n{}`);
  expectShape(api, 413, "payload too large");
  // The rest of the body is never read, so the connection is not kept for another request.
  expect(api.slice(0, api.indexOf("\r\n\r\n"))).toMatch(/\r\nconnection: close\r\n/i);
});

test("a chunked body past the trigger's limit gets the contract's 413 and a rejected row", async () => {
  const small = await createTrigger({ name: "edge-small", maxBodyBytes: 64 });
  const answer = await raw(`POST /webhooks/${small.token} HTTP/1.1\r\nHost: edge\r\nTransfer-Encoding: chunked\r\n\r\n80\r\n${"a".repeat(128)}\r\n0\r\n\r\n`);
  expectShape(answer, 413, "payload too large");
  const rows = await waitFor("the 413's row", async () => (await activity(small.id)).length > 0 && activity(small.id));
  expect(rows.map((r) => [r.outcome, r.requestId])).toEqual([["rejected", requestIdOf(answer)]]);
});

test("/webhooks without a token, with an empty one or one segment too many: 404 in the contract's shape", async () => {
  for (const path of ["/webhooks", "/webhooks/", "/webhooks//", `/webhooks/${token}/extra`, "/webhooks/%2F"]) {
    expectShape(await raw(`POST ${path} HTTP/1.1\r\nHost: edge\r\nContent-Length: 2\r\n\r\n{}`), 404, "not found");
  }
});

test("a percent-encoded token and one trailing slash reach the trigger: one Activity row each, under the answer's id", async () => {
  const t = await createTrigger({ name: "edge-paths" });
  const encoded = [...t.token].map((c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join("");
  const ids: string[] = [];
  for (const path of [`/webhooks/${encoded}`, `/webhooks/${t.token}/`, `/webhooks/${t.token}/?a=1`]) {
    const answer = await raw(`POST ${path} HTTP/1.1\r\nHost: edge\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
    expect(answer).toStartWith("HTTP/1.1 200");
    ids.push(requestIdOf(answer));
  }
  expect((await activity(t.id)).map((r) => [r.outcome, r.requestId])).toEqual(ids.reverse().map((id) => ["run", id]));
});

test("the Host header plays no part in routing", async () => {
  expect(await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`)).toContain("HTTP/1.1 200");
  for (const host of ["x", "a b", "[::1", "bad_host:99999"]) {
    const answer = await raw(`POST /webhooks/${token} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
    expect(answer).toContain("HTTP/1.1 200");
    expect(answer).toContain('"received":true');
  }
});

test("a client cut by the idle timeout mid-body leaves a rejected row naming why, and no empty error is logged", async () => {
  const before = (await activity()).length;
  await raw(`POST /webhooks/${token} HTTP/1.1\r\nHost: edge\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"partial":`, 4000);
  let rows = await activity();
  for (let i = 0; i < 50 && rows.length === before; i++) {
    await Bun.sleep(100);
    rows = await activity();
  }
  expect(rows[0]).toMatchObject({ outcome: "rejected", detail: expect.stringContaining("did not arrive whole") });
});

test("after all of the above, nothing was logged as an error with an empty message", async () => {
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  await Bun.sleep(50); // the last of stderr drained (spawnServer reads it all along)
  const stderr = server.errors();
  expect(stderr).toContain("note: trigger URLs"); // stderr was read (the start-up note is there)
  for (const line of stderr.split("\n").filter((l) => l.startsWith("{"))) {
    const entry = JSON.parse(line);
    if (entry.level === "error") expect(String(entry.error ?? entry.msg).trim()).not.toBe("");
  }
  expect(stderr).not.toContain('"error":""');
});
