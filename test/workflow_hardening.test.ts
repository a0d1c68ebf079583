import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe("workflow headers are checked when the trigger is saved", () => {
  test("a value with CR/LF, NUL or another control character, or past Latin-1, is a 400 naming the header", async () => {
    const workflow = (headers: Record<string, string>) => ({ kind: "http", url: "http://127.0.0.1:9/hook", headers });
    for (const [name, value] of [["X-Evil", "a\r\nSet-Cookie: x=1"], ["X-Nul", "a\0b"], ["X-Bell", "\u0007"], ["X-Price", "5 €"]]) {
      const created = await server.api("POST", "/api/triggers", { name: "h", workflow: workflow({ [name]: value }) });
      expect(created.status).toBe(400);
      expect(created.body).toEqual({ error: expect.any(String), details: [{ path: `/workflow/headers/${name}`, message: expect.stringContaining("position") }] });
    }
    const badName = await server.api("POST", "/api/triggers", { name: "h", workflow: workflow({ "X Source": "inlet" }) });
    expect(badName.body.details).toEqual([{ path: "/workflow/headers/X Source", message: expect.stringContaining("header name") }]);
    // A good one saves, and a change that makes it bad is refused the same way.
    const good = await server.api("POST", "/api/triggers", { name: "h", workflow: workflow({ "X-Source": "inlet", "X-Tabbed": "a\tb", "X-Name": "café" }) });
    expect(good.status).toBe(201);
    const patched = await server.api("PATCH", `/api/triggers/${good.body.id}`, { workflow: { headers: { "X-Source": "in\nlet" } } });
    expect(patched.status).toBe(400);
    expect(patched.body.details.map((d: any) => d.path)).toEqual(["/workflow/headers/X-Source"]);
  });
});
