import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./support/server.ts";

// Data kept exactly (docs/processing-order.md#data-kept-exactly), through real HTTP.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const lastRun = async (id: string) => ((await server.api("GET", `/api/runs?triggerId=${id}&include=trigger`)).body as any[])[0];

test("JSON with invalid UTF-8 bytes is 400 invalid JSON body, with the reason in Activity", async () => {
  const t = await server.createTrigger({ name: "utf8" });
  for (const bad of [
    [0xff, 0xfe, 0xc3],
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xe2, 0x82],
  ]) {
    const body = Uint8Array.from([...new TextEncoder().encode('{"s":"a'), ...bad, ...new TextEncoder().encode('b"}')]);
    const r = await fetch(t.url, { method: "POST", body, headers: { "Content-Type": "application/json" } });
    expect(r.status).toBe(400);
    expect((await r.json()).error).toBe("invalid JSON body");
  }
  const rows = await server.activity(t.id);
  expect(rows).toHaveLength(4);
  expect(rows.every((row) => row.outcome === "rejected" && row.detail.includes("UTF-8"))).toBe(true);
  const fine = await fetch(t.url, { method: "POST", body: '{"s":"ä€𝄞"}', headers: { "Content-Type": "application/json" } });
  expect(fine.status).toBe(200);
  expect((await lastRun(t.id)).trigger.body).toEqual({ s: "ä€𝄞" });
});

test("a text or form body whose bytes are not its charset is 400 invalid text body; a named charset is read as such; other types are kept as a string", async () => {
  const t = await server.createTrigger({ name: "text-exact" });
  const send = (body: Uint8Array<ArrayBuffer>, type: string) => fetch(t.url, { method: "POST", body, headers: { "Content-Type": type } });
  const bytes = (...values: number[]) => Uint8Array.from(values);
  for (const [body, type] of [
    [bytes(0x68, 0xe9), "text/plain"],
    [bytes(0x61, 0x3d, 0xff), "application/x-www-form-urlencoded"],
    [bytes(0x68), "text/plain; charset=klingon"],
  ] as const) {
    const r = await send(body, type);
    expect({ type, status: r.status }).toEqual({ type, status: 400 });
    expect(await r.json()).toEqual({ error: "invalid text body", request_id: r.headers.get("x-request-id") });
  }
  expect((await server.activity(t.id)).map((row) => row.outcome)).toEqual(["rejected", "rejected", "rejected"]);
  expect((await send(bytes(0x68, 0xe9), "text/plain; charset=iso-8859-1")).status).toBe(200);
  expect((await lastRun(t.id)).trigger.body).toBe("hé");
  expect((await send(bytes(0x61, 0x3d, 0xc3, 0xa9), "application/x-www-form-urlencoded")).status).toBe(200);
  expect((await lastRun(t.id)).trigger.body).toEqual({ a: "é" });
});

test("names such as __proto__, constructor and toString are kept literally in bodies, queries and headers", async () => {
  const t = await server.createTrigger({ name: "literal" });
  const r = await fetch(`${t.url}?constructor=1&__proto__=2&toString=3&hasOwnProperty=4&x=5`, {
    method: "POST",
    body: "__proto__=a&constructor=b&toString=c&valueOf=d&plain=e",
    headers: [
      ["Content-Type", "application/x-www-form-urlencoded"],
      ["__proto__", "h"],
      ["constructor", "k"],
    ],
  });
  expect(r.status).toBe(200);
  const run = await lastRun(t.id);
  expect(run.trigger.body).toEqual(JSON.parse('{"__proto__":"a","constructor":"b","toString":"c","valueOf":"d","plain":"e"}'));
  expect(run.trigger.query).toEqual(JSON.parse('{"constructor":"1","__proto__":"2","toString":"3","hasOwnProperty":"4","x":"5"}'));
  expect(Object.keys(run.trigger.body)).toContain("__proto__");
  expect(Object.hasOwn(run.trigger.headers, "__proto__") && run.trigger.headers.__proto__).toBe("h");
  expect(run.trigger.headers.constructor).toBe("k");
  expect(Object.keys(run.trigger.query)).toEqual(["constructor", "__proto__", "toString", "hasOwnProperty", "x"]);
  const json = await fetch(t.url, { method: "POST", body: '{"__proto__":{"x":1},"constructor":2}', headers: { "Content-Type": "application/json" } });
  expect(json.status).toBe(200);
  expect(Object.keys((await lastRun(t.id)).trigger.body)).toEqual(["__proto__", "constructor"]);
});
