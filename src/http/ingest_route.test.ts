import { expect, test } from "bun:test";
import { webhookToken } from "./ingest_route.ts";

test("webhookToken: the one path segment after /webhooks/, percent-decoded, one trailing slash allowed; anything else goes to the router", () => {
  expect(webhookToken("http://127.0.0.1:8080/webhooks/abc_DEF-123")).toBe("abc_DEF-123");
  expect(webhookToken("http://h/webhooks/abc?x=1&y=/2")).toBe("abc");
  expect(webhookToken("http://h/webhooks/abc#frag")).toBe("abc");
  expect(webhookToken("http://h/webhooks/a%2Db")).toBe("a-b");
  expect(webhookToken("http://h/webhooks/")).toBeNull();
  expect(webhookToken("http://h/webhooks/abc/")).toBe("abc");
  expect(webhookToken("http://h/webhooks/abc/?x=1")).toBe("abc");
  expect(webhookToken("http://h/webhooks//")).toBeNull();
  expect(webhookToken("http://h/webhooks/abc//")).toBeNull();
  expect(webhookToken("http://h/webhooks/abc/more")).toBeNull();
  expect(webhookToken("http://h/webhooks")).toBeNull();
  expect(webhookToken("http://h/webhooksabc")).toBeNull();
  expect(webhookToken("http://h/api/webhooks/abc")).toBeNull();
  expect(webhookToken("http://h/webhooks/%E0%A4%A")).toBeNull();
  expect(webhookToken("http://webhooks/x/webhooks/abc")).toBeNull();
  // Bun's URL for a request whose Host is no valid host is the bare path.
  expect(webhookToken("/webhooks/abc?next=http://h/webhooks/x")).toBe("abc");
});
