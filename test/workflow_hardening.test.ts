import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const post = (url: string, body: unknown) => fetch(url, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
const scriptAnswering = (name: string, source: string) =>
  server.createTrigger({ name, response: { mode: "workflow", timeoutMs: 5000 }, workflow: { kind: "script", source } });

describe("workflow headers are checked when the trigger is saved", () => {
  test("a value with CR/LF, NUL or another control character, or past Latin-1, is a 400 naming the header", async () => {
    const workflow = (headers: Record<string, string>) => ({ kind: "http", url: "http://127.0.0.1:9/hook", headers });
    for (const [name, value] of [
      ["X-Evil", "a\r\nSet-Cookie: x=1"],
      ["X-Nul", "a\0b"],
      ["X-Bell", "\u0007"],
      ["X-Price", "5 €"],
    ]) {
      const created = await server.api("POST", "/api/triggers", { name: "h", workflow: workflow({ [name]: value }) });
      expect(created.status).toBe(400);
      expect(created.body).toEqual({
        error: expect.any(String),
        details: [{ path: `/workflow/headers/${name}`, message: expect.stringContaining("position") }],
      });
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

describe("what a workflow answers the sender", () => {
  test("never carries Set-Cookie or Set-Cookie2; the workflow's other headers are kept", async () => {
    const t = await scriptAnswering(
      "cookie",
      "export default () => ({ status: 201, headers: { 'Set-Cookie': 'session=stolen; Path=/', 'set-cookie2': 'a=b', 'X-Kept': 'yes' }, body: { ok: true } })",
    );
    const response = await post(t.url, {});
    expect(response.status).toBe(201);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(response.headers.get("set-cookie2")).toBeNull();
    expect(response.headers.get("x-kept")).toBe("yes");
    expect(await response.json()).toEqual({ ok: true });
  });

  test("a header value the answer cannot carry is dropped: the sender gets the rest of what the run recorded as succeeded, never a 500", async () => {
    const t = await scriptAnswering(
      "bad-header",
      "export default () => ({ status: 202, headers: { 'X-Price': '5 €', 'X-Bell': 'a\\u0007b', 'X-Kept': 'yes' }, body: 'done' })",
    );
    const response = await post(t.url, {});
    expect(response.status).toBe(202);
    expect(response.headers.get("x-price")).toBeNull();
    expect(response.headers.get("x-bell")).toBeNull();
    expect(response.headers.get("x-kept")).toBe("yes");
    expect(await response.text()).toBe("done");
    const [run] = (await server.api("GET", `/api/runs?triggerId=${t.id}`)).body;
    expect(run.status).toBe("succeeded");
  });
});
