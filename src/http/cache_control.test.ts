import { expect, test } from "bun:test";
import { noStoreFor, withCacheControl } from "./cache_control.ts";

test("the management API and /metrics are never stored by a cache, whatever the query; the rest is left to its route", () => {
  for (const url of [
    "http://127.0.0.1:8080/api",
    "http://127.0.0.1:8080/api/",
    "http://127.0.0.1:8080/api/triggers?limit=5",
    "http://127.0.0.1:8080/api/openapi.json#x",
    "/api/triggers",
    "http://127.0.0.1:8080/metrics",
    "http://127.0.0.1:8080/metrics/",
    "http://127.0.0.1:8080/metrics?x=1",
  ]) {
    expect({ url, noStore: noStoreFor(url) }).toEqual({ url, noStore: true });
  }
  for (const url of [
    "http://127.0.0.1:8080/",
    "http://127.0.0.1:8080",
    "http://127.0.0.1:8080/apis",
    "http://127.0.0.1:8080/metricsx",
    "http://127.0.0.1:8080/healthz",
    "http://127.0.0.1:8080/webhooks/abc",
    "http://127.0.0.1:8080/assets/api/x.js",
    "http://127.0.0.1:8080/?next=/api/triggers",
    "/healthz?u=http://h/api/x",
  ]) {
    expect({ url, noStore: noStoreFor(url) }).toEqual({ url, noStore: false });
  }
});

test("withCacheControl sets no-store on such an answer and leaves the others as they are", () => {
  expect(withCacheControl("http://h/api/triggers", new Response("{}", { status: 404 })).headers.get("cache-control")).toBe("no-store");
  const panel = new Response("<html>", { headers: { "Cache-Control": "public, max-age=60" } });
  expect(withCacheControl("http://h/assets/app.js", panel).headers.get("cache-control")).toBe("public, max-age=60");
});
