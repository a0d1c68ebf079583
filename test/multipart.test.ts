import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { startTestServer, type TestServer } from "./support/server.ts";

/**
 * multipart/form-data bodies (README "Multipart bodies"): Plex's shape — a JSON `payload` part and
 * a JPEG `thumb` — becomes `$trigger.body.payload` (parsed) and `$trigger.files` (described, the
 * bytes never stored); filters, redaction and HMAC work on it as on any body.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const runs = async (id: string) => (await server.api("GET", `/api/runs?triggerId=${id}&include=trigger`)).body as any[];
const thumb = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0xd9]);

/** What Plex sends: a `payload` field of JSON and the poster as a file part (Bun's FormData writes the multipart body). */
async function plexBody(event: string, email = "owner@example.org") {
  const form = new FormData();
  form.append("payload", JSON.stringify({ event, Account: { title: "owner", email }, Metadata: { title: "Film", year: 2024 } }));
  form.append("thumb", new File([thumb], "poster.jpg", { type: "image/jpeg" }));
  const request = new Request("http://x/", { method: "POST", body: form });
  const type = request.headers.get("content-type")!;
  return { bytes: new Uint8Array(await request.arrayBuffer()), type };
}

test("Plex's multipart webhook: payload field in $trigger.body, the poster described in $trigger.files, no bytes stored", async () => {
  const t = await server.createTrigger({ name: "plex" });
  const { bytes, type } = await plexBody("media.play");
  const r = await server.fetch(t.url, { method: "POST", body: bytes, headers: { "Content-Type": type } });
  expect(r.status).toBe(200);
  const [run] = await runs(t.id);
  // Bun's FormData sends the string part without a content type: text, kept as sent.
  expect(JSON.parse(run.trigger.body.payload)).toMatchObject({ event: "media.play", Metadata: { year: 2024 } });
  expect(run.trigger.files).toEqual([
    {
      field: "thumb",
      filename: "poster.jpg",
      contentType: "image/jpeg",
      size: thumb.length,
      sha256: new Bun.CryptoHasher("sha256").update(thumb).digest("hex"),
    },
  ]);
  expect(run.trigger.body.thumb).toBeUndefined();
});

test("a JSON part is parsed; filters, redaction and HMAC apply to the fields", async () => {
  const secret = "multipart-hmac-secret-0123456789";
  const t = await server.createTrigger({
    name: "forms",
    auth: { type: "hmac-sha256" },
    filter: { enabled: true, mode: "include", expression: '$.payload.event == "media.play"' },
    redaction: { enabled: true, patterns: ["email"] },
  });
  await server.api("POST", `/api/triggers/${t.id}/rotate`, {});
  const key = (await server.api("GET", `/api/triggers/${t.id}/secret`)).body.secret as string;
  const boundary = "----inlet-test";
  const body = (event: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="payload"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ event, Account: { email: "pii@example.org" } })}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`;
  const send = (text: string, signer = key) =>
    server.fetch(t.url, {
      method: "POST",
      body: text,
      headers: {
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "X-Signature": `sha256=${createHmac("sha256", signer).update(text).digest("hex")}`,
      },
    });
  expect((await send(body("media.play"))).status).toBe(200);
  expect((await send(body("media.pause"))).status).toBe(200);
  expect((await send(body("media.play"), secret)).status).toBe(401);
  const stored = await runs(t.id);
  expect(stored).toHaveLength(1);
  expect(stored[0].trigger.body).toEqual({ payload: { event: "media.play", Account: { email: "[REDACTED]" } }, note: "hello" });
  expect(stored[0].trigger.files).toEqual([]);
  expect((await server.activity(t.id)).map((row) => row.outcome).sort()).toEqual(["auth_failed", "filtered", "run"]);
});

test("a malformed multipart body is 400 invalid multipart body; more than 1000 parts is 413", async () => {
  const t = await server.createTrigger({ name: "broken-forms" });
  const truncated = await server.fetch(t.url, {
    method: "POST",
    body: '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end',
    headers: { "Content-Type": "multipart/form-data; boundary=b" },
  });
  expect(truncated.status).toBe(400);
  expect(await truncated.json()).toEqual({ error: "invalid multipart body", request_id: truncated.headers.get("x-request-id") });
  const noBoundary = await server.fetch(t.url, { method: "POST", body: "x", headers: { "Content-Type": "multipart/form-data" } });
  expect([noBoundary.status, (await noBoundary.json()).error]).toEqual([400, "invalid multipart body"]);
  const many = Array.from({ length: 1001 }, (_, i) => `--b\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join("") + "--b--\r\n";
  const tooMany = await server.fetch(t.url, { method: "POST", body: many, headers: { "Content-Type": "multipart/form-data; boundary=b" } });
  expect([tooMany.status, (await tooMany.json()).error]).toEqual([413, "payload too large"]);
  const rows = await server.activity(t.id);
  expect(rows.map((row) => [row.outcome, row.detail.split(":")[0]])).toContainEqual(["rejected", "multipart body"]);
  expect(await runs(t.id)).toHaveLength(0);
});

test("a replayed multipart request keeps its files", async () => {
  const t = await server.createTrigger({ name: "plex-replay" });
  const { bytes, type } = await plexBody("media.scrobble");
  expect((await server.fetch(t.url, { method: "POST", body: bytes, headers: { "Content-Type": type } })).status).toBe(200);
  const [run] = await runs(t.id);
  const replayed = await server.api("POST", `/api/runs/${run.id}/replay`, {});
  expect(replayed.status).toBe(201);
  const again = (await runs(t.id)).find((r) => r.id !== run.id);
  expect(again.trigger.files).toEqual(run.trigger.files);
});
