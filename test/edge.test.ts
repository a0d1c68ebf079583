import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PARSER_HEADER_BYTES } from "../src/http/edge.ts";
import { BUN, spawnServer, type ServerProcess } from "./support/process.ts";
import { rawHttp } from "./support/raw_http.ts";

/**
 * The bad-input corpus (CONTRACT §6.6): requests the HTTP layer used to refuse with a bare status
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
  server = await spawnServer([BUN, `--max-http-header-size=${PARSER_HEADER_BYTES}`, "run", "src/main.ts"], ["--data-dir", dataDir, "--idle-timeout", "1", "--log-requests", "false"], {
    env: { INLET_ADMIN_TOKEN: ADMIN },
  });
  const url = new URL(server.url);
  host = url.hostname;
  port = Number(url.port);
  const created = await (await fetch(`${server.url}/api/triggers`, { method: "POST", headers: { Authorization: `Bearer ${ADMIN}`, "Content-Type": "application/json" }, body: '{"name":"edge"}' })).json();
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

const activity = async () =>
  (await (await fetch(`${server.url}/api/triggers/${triggerId}/activity?limit=500`, { headers: { Authorization: `Bearer ${ADMIN}` } })).json()) as Array<{ outcome: string; detail: string | null; requestId: string }>;

test("a body declared larger than Bun's default limit gets the contract's 413", async () => {
  expectShape(await raw(`POST /webhooks/${token} HTTP/1.1\r\nHost: edge\r\nContent-Length: 52428800\r\n\r\n{}`), 413, "payload too large");
});

test("large header values, long tokens and long URLs: 431 and 414 in the contract's shape", async () => {
  expectShape(await raw(`POST /webhooks/${token} HTTP/1.1\r\nHost: edge\r\nX-Big: ${"a".repeat(65_536)}\r\nContent-Length: 2\r\n\r\n{}`), 431, "request header fields too large");
  expectShape(await raw(`POST /webhooks/${token} HTTP/1.1\r\nHost: edge\r\nX-Big: ${"a".repeat(1024 * 1024)}\r\nContent-Length: 2\r\n\r\n{}`), 431, "request header fields too large");
  expectShape(await raw(`POST /webhooks/${"a".repeat(65_536)} HTTP/1.1\r\nHost: edge\r\nContent-Length: 2\r\n\r\n{}`), 414, "uri too long");
});

test("a 431 or 414 to a known token leaves one rejected Activity row under the answer's request id", async () => {
  const idOf = (answer: string) => /x-request-id: (\S+)/i.exec(answer)![1];
  const tooLarge = idOf(await raw(`POST /webhooks/${token} HTTP/1.1\r\nHost: edge\r\nX-Big: ${"a".repeat(65_536)}\r\nContent-Length: 2\r\n\r\n{}`));
  const tooLong = idOf(await raw(`POST /webhooks/${token}?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: edge\r\nContent-Length: 2\r\n\r\n{}`));
  const rowsFor = async (requestId: string) => (await activity()).filter((r) => r.requestId === requestId);
  let rows = await rowsFor(tooLong);
  for (let i = 0; i < 50 && rows.length === 0; i++) {
    await Bun.sleep(100);
    rows = await rowsFor(tooLong);
  }
  expect(rows).toEqual([expect.objectContaining({ outcome: "rejected", detail: "refused before routing: uri too long" })]);
  expect(await rowsFor(tooLarge)).toEqual([expect.objectContaining({ outcome: "rejected", detail: "refused before routing: request header fields too large" })]);
});

test("an empty token and unknown paths are 404 with a request id", async () => {
  expectShape(await raw(`POST /webhooks/ HTTP/1.1\r\nHost: edge\r\nContent-Length: 2\r\n\r\n{}`), 404, "not found");
  expectShape(await raw(`GET /nothing/here HTTP/1.1\r\nHost: edge\r\n\r\n`), 404, "not found");
});

test("the Host header plays no part in routing", async () => {
  expect(await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`)).toContain("HTTP/1.1 200");
  const answer = await raw(`POST /webhooks/${token} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
  expect(answer).toContain("HTTP/1.1 200");
  expect(answer).toContain('"received":true');
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
