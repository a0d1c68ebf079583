import { afterAll, expect, test } from "bun:test";
import { KeyFetchGate } from "../auth/key_fetch_gate.ts";
import { ProviderFetchRefused, ProviderUnavailable } from "./provider_errors.ts";
import { ProviderFetch } from "./provider_fetch.ts";
import type { FetchRule } from "./types.ts";

// A provider double on 127.0.0.1, allowed the way --provider-fetch-allow allows it, counting the
// requests it gets per path; its answer per path is the test's to choose.
const hits = new Map<string, number>();
const methods: string[] = [];
let answer: (path: string) => Response | Promise<Response> = (path) => new Response(`text of ${path}`);
const double = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request) {
    const path = new URL(request.url).pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    methods.push(request.method);
    return answer(path);
  },
});
afterAll(() => double.stop(true));

const HERE = `127.0.0.1:${double.port}`;
let paths = 0;
/** A URL of the double no other test used (the gate and the cache count per URL). */
const fresh = (suffix = ".pem") => `http://${HERE}/p${++paths}${suffix}`;
const hitsOf = (url: string) => hits.get(new URL(url).pathname) ?? 0;
const RULE: FetchRule = { hosts: /^sns\.[a-z0-9-]+\.amazonaws\.com$/, purpose: "signing certificate" };

/** A fetcher allowing the double, on a clock the test moves. */
function fetcher(options: { allow?: string[]; maxCached?: number; timeoutMs?: number } = {}) {
  const clock = { now: 1_000_000 };
  const gate = new KeyFetchGate(() => clock.now);
  return {
    clock,
    fetch: new ProviderFetch(options.allow ?? [HERE], { gate, now: () => clock.now, maxCached: options.maxCached, timeoutMs: options.timeoutMs }),
  };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

test("a host:port of --provider-fetch-allow is fetched over http; the text is cached per URL for cacheSeconds (default 3600)", async () => {
  const { clock, fetch } = fetcher();
  const url = fresh();
  expect(await fetch.fetchText(url, RULE)).toBe(`text of ${new URL(url).pathname}`);
  expect(await fetch.fetchText(url, RULE)).toBe(`text of ${new URL(url).pathname}`);
  expect(hitsOf(url)).toBe(1);
  clock.now += 3599_000;
  await fetch.fetchText(url, RULE);
  expect(hitsOf(url)).toBe(1);
  clock.now += 2_000;
  await fetch.fetchText(url, RULE);
  expect(hitsOf(url)).toBe(2);
  // Its own cacheSeconds, and 0: every call fetches.
  const short = fresh();
  await fetch.fetchText(short, { ...RULE, cacheSeconds: 0 });
  await fetch.fetchText(short, { ...RULE, cacheSeconds: 0 });
  expect(hitsOf(short)).toBe(2);
});

test("the cache is bounded: past maxCached URLs the oldest is fetched again", async () => {
  const { fetch } = fetcher({ maxCached: 2 });
  const [a, b, c] = [fresh(), fresh(), fresh()];
  for (const url of [a, b, c, c, b, a]) await fetch.fetchText(url, RULE);
  expect([hitsOf(a), hitsOf(b), hitsOf(c)]).toEqual([2, 1, 1]);
});

test("a URL outside the rule is refused without being fetched: ProviderFetchRefused saying why", async () => {
  const { fetch } = fetcher({ allow: [] });
  const url = fresh();
  const refused = await rejection(fetch.fetchText(url, RULE));
  expect(refused).toBeInstanceOf(ProviderFetchRefused);
  expect(refused.message).toContain(`http://${HERE}${new URL(url).pathname} is not https`);
  expect(refused.message).toContain("--provider-fetch-allow");
  expect(await rejection(fetch.confirmUrl(url, RULE))).toBeInstanceOf(ProviderFetchRefused);
  // Another port of an allowed host is another host.
  const otherPort = fetcher({ allow: ["127.0.0.1:1"] });
  expect(await rejection(otherPort.fetch.fetchText(url, RULE))).toBeInstanceOf(ProviderFetchRefused);
  expect(hitsOf(url)).toBe(0);
});

test("provider hosts: https only, on the default port, the whole host matching; pathPattern applies to allowed hosts too", async () => {
  const { fetch } = fetcher();
  const rule = { ...RULE, pathPattern: /\.pem$/ };
  expect(fetch.problem("https://sns.us-east-1.amazonaws.com/SimpleNotificationService-1.pem?x=1", rule)).toBeNull();
  expect(fetch.problem("https://sns.us-east-1.amazonaws.com/a.pem", { ...rule, hosts: (host) => host.endsWith(".amazonaws.com") })).toBeNull();
  expect(fetch.problem("http://sns.us-east-1.amazonaws.com/a.pem", rule)).toContain("is not https");
  expect(fetch.problem("https://sns.us-east-1.amazonaws.com:8443/a.pem", rule)).toContain("names port 8443");
  expect(fetch.problem("https://sns.us-east-1.amazonaws.com.evil.test/a.pem", rule)).toContain(
    "sns.us-east-1.amazonaws.com.evil.test is not one of the provider's hosts",
  );
  expect(fetch.problem("https://evil.test/a.pem", { ...rule, hosts: /sns\.us-east-1\.amazonaws\.com|evil/g })).toContain("is not one of the provider's hosts");
  expect(fetch.problem("https://user:pw@sns.us-east-1.amazonaws.com/a.pem", rule)).toContain("credentials");
  expect(fetch.problem("https://sns.us-east-1.amazonaws.com/a.txt", rule)).toContain("does not match /\\.pem$/");
  expect(fetch.problem("file:///etc/passwd", rule)).toContain("file: URLs are not fetched");
  expect(fetch.problem("not a url", rule)).toContain("is not a URL");
  // The double is allowed, but its path must still be a .pem.
  const url = fresh(".txt");
  expect(await rejection(fetch.fetchText(url, rule))).toBeInstanceOf(ProviderFetchRefused);
  expect(hitsOf(url)).toBe(0);
});

test("a failing URL: ProviderUnavailable naming its host, then left alone 30 s (doubling) however many calls come, as JWKS fetches are", async () => {
  const { clock, fetch } = fetcher();
  const url = fresh();
  answer = () => new Response("down", { status: 500 });
  try {
    const first = await rejection(fetch.fetchText(url, RULE));
    expect(first).toBeInstanceOf(ProviderUnavailable);
    expect(first).toMatchObject({ host: HERE, retryAfterSeconds: 30 });
    expect(first.message).toBe(`signing certificate from http://${HERE}${new URL(url).pathname} failed: HTTP 500, not 200`);
    const during = await Promise.all(Array.from({ length: 20 }, () => rejection(fetch.fetchText(url, RULE))));
    for (const error of during) expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(during[0].message).toContain("the last fetch failed (HTTP 500, not 200); not fetched again before");
    clock.now += 10_000;
    expect(await rejection(fetch.confirmUrl(url, RULE))).toMatchObject({ retryAfterSeconds: 20 });
    expect(hitsOf(url)).toBe(1);
    clock.now += 20_000;
    expect(await rejection(fetch.fetchText(url, RULE))).toMatchObject({ retryAfterSeconds: 60 });
    expect(hitsOf(url)).toBe(2);
  } finally {
    answer = (path) => new Response(`text of ${path}`);
  }
  // Failures are not cached: once it answers again, its text is served.
  clock.now += 60_000;
  expect(await fetch.fetchText(url, RULE)).toBe(`text of ${new URL(url).pathname}`);
});

test("a redirect is not followed (its target was never checked) and a host that does not answer in time is unavailable", async () => {
  const { fetch } = fetcher({ timeoutMs: 200 });
  const moved = fresh();
  const hanging = fresh();
  answer = (path) => (path === new URL(moved).pathname ? Response.redirect("http://169.254.169.254/latest", 302) : new Promise(() => {}));
  try {
    expect((await rejection(fetch.fetchText(moved, RULE))).message).toEndWith("failed: HTTP 302, not 200");
    expect((await rejection(fetch.fetchText(hanging, RULE))).message).toEndWith("failed: timed out");
  } finally {
    answer = (path) => new Response(`text of ${path}`);
  }
});

test("confirmUrl GETs the URL under the same rule, every time (never cached)", async () => {
  const { fetch } = fetcher();
  const url = `${fresh(".xml")}?Action=ConfirmSubscription&Token=abc`;
  methods.length = 0;
  await fetch.confirmUrl(url, { ...RULE, purpose: "subscription confirmation" });
  await fetch.confirmUrl(url, { ...RULE, purpose: "subscription confirmation" });
  expect(hitsOf(url)).toBe(2);
  expect(methods).toEqual(["GET", "GET"]);
});
