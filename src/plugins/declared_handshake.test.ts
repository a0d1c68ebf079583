import { expect, test } from "bun:test";
import { declaredHandshake, handshakeProblems } from "./declared_handshake.ts";
import { PluginRegistry } from "./registry.ts";
import type { PluginRequest } from "./types.ts";

const req = (body: string, headers: Record<string, string> = {}, method = "POST"): PluginRequest => ({
  method,
  url: "https://x/webhooks/t",
  headers: new Headers(headers),
  rawBody: new TextEncoder().encode(body),
});

const handshake = declaredHandshake([
  { when: [{ field: ["type"], equals: "url_verification" }], reply: { echo: ["challenge"], as: "json", key: "challenge" } },
  { when: [{ header: "x-type", equals: "verify" }], reply: { echo: ["data", "token"], as: "text" } },
  {
    when: [
      { field: ["type"], equals: 1 },
      { field: ["event"], present: false },
    ],
    reply: { json: { type: 1 } },
  },
  { when: [{ field: ["type"], equals: 0 }], reply: { status: 204 } },
]);

test("answers each declared shape", async () => {
  expect(await (handshake(req('{"type":"url_verification","challenge":"abc"}')) as Response).json()).toEqual({ challenge: "abc" });
  const text = handshake(req('{"data":{"token":"t-1"}}', { "x-type": "verify" })) as Response;
  expect([text.headers.get("content-type"), await text.text()]).toEqual(["text/plain", "t-1"]);
  expect(await (handshake(req('{"type":1}')) as Response).json()).toEqual({ type: 1 });
  expect((handshake(req('{"type":0}')) as Response).status).toBe(204);
});

test("anything else is not a handshake: other bodies, missing echo fields, GET, non-JSON", () => {
  expect(handshake(req('{"type":1,"event":{}}'))).toBeNull();
  expect(handshake(req('{"type":"url_verification"}'))).toBeNull();
  expect(handshake(req('{"type":"url_verification","challenge":5}'))).toBeNull();
  expect(handshake(req('{"type":"url_verification","challenge":"abc"}', {}, "GET"))).toBeNull();
  expect(handshake(req("\xff{"))).toBeNull();
  expect(handshake(req('{"__proto__":{"type":0}}'))).toBeNull();
});

test("the loader refuses malformed declarations and both forms at once", () => {
  expect(handshakeProblems([{ when: [], reply: { status: 204 } }])[0]).toMatch(/when must be a non-empty array/);
  expect(handshakeProblems([{ when: [{ field: "type", equals: 1 }], reply: { status: 204 } }])[0]).toMatch(/neither/);
  expect(handshakeProblems([{ when: [{ header: "x", equals: "y" }], reply: { status: 500 } }])[0]).toMatch(/reply must be/);
  expect(handshakeProblems({})).toEqual(["handshakes must be an array of { when, reply }"]);
  const base = { id: "x", name: "X", secret: { label: "s", generated: false }, verify: () => true };
  expect(
    () => new PluginRegistry([{ ...base, handshake: () => null, handshakes: [{ when: [{ header: "x", equals: "y" }], reply: { status: 204 } }] }]),
  ).toThrow(/not both/);
});

test("the registry gives a plugin with declared handshakes the one handshake hook the host calls", async () => {
  const base = { id: "x", name: "X", secret: { label: "s", generated: false }, verify: () => true };
  const registry = new PluginRegistry([{ ...base, handshakes: [{ when: [{ header: "x-ping", equals: "1" }], reply: { status: 204 } }] }]);
  const loaded = registry.get("x")!;
  expect(((await loaded.handshake!(req("", { "x-ping": "1" }), {} as never)) as Response).status).toBe(204);
});
