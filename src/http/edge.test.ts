import { expect, test } from "bun:test";
import { edgeRefusal, MAX_HEADER_BYTES, MAX_URL_BYTES, refuseOversized, routable } from "./edge.ts";

async function expectShape(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  const id = response.headers.get("x-request-id");
  expect(await response.json()).toEqual({ error, request_id: id });
}

test("refusals before routing carry a fresh request id in the body and the header", async () => {
  await expectShape(edgeRefusal(404, "not found"), 404, "not found");
});

test("a long request line is 414, large headers 431, anything else goes on", async () => {
  await expectShape(refuseOversized(new Request(`http://h.test/webhooks/${"a".repeat(MAX_URL_BYTES)}`))!, 414, "uri too long");
  await expectShape(
    refuseOversized(new Request("http://h.test/x", { headers: { "x-big": "a".repeat(MAX_HEADER_BYTES) } }))!,
    431,
    "request header fields too large",
  );
  expect(refuseOversized(new Request("http://h.test/x", { headers: { "x-fine": "a".repeat(1000) } }))).toBeNull();
});

test("repeated headers count one by one toward the 431 limit, Set-Cookie (kept as a list) like any other", async () => {
  const each = 36;
  const count = Math.ceil(MAX_HEADER_BYTES / ("set-cookie".length + each + 4)) + 1;
  const cookies = new Headers();
  for (let i = 0; i < count; i++) cookies.append("Set-Cookie", `c${i}=${"v".repeat(each - 2 - String(i).length)}`);
  await expectShape(refuseOversized(new Request("http://h.test/x", { headers: cookies }))!, 431, "request header fields too large");
  const few = new Headers();
  for (let i = 0; i < 10; i++) few.append("Set-Cookie", `c${i}=${"v".repeat(30)}`);
  expect(refuseOversized(new Request("http://h.test/x", { headers: few }))).toBeNull();
});

test("routing ignores the Host: a short host is re-addressed, keeping path, query, method and body", async () => {
  const original = new Request("http://x/webhooks/tok?a=1", { method: "POST", body: "{}", headers: { "X-Sig": "s" } });
  const routed = routable(original);
  expect(routed.url).toBe("http://inlet.local/webhooks/tok?a=1");
  expect(routed.method).toBe("POST");
  expect(routed.headers.get("x-sig")).toBe("s");
  expect(await routed.text()).toBe("{}");
  expect(routable({ url: "/webhooks/tok?next=http://h/x", method: "GET", headers: new Headers() } as Request).url).toBe(
    "http://inlet.local/webhooks/tok?next=http://h/x",
  );
  const normal = new Request("http://127.0.0.1:8080/healthz");
  expect(routable(normal)).toBe(normal);
});
