import { expect, test } from "bun:test";
import { sha256Hex } from "../auth/digest.ts";
import { METRICS_TOKEN_HINT, metricsGuard } from "./metrics_access.ts";

const METRICS_TOKEN = "metrics-token-0123456789";
const ADMIN_TOKEN = "admin-token-0123456789";

const scrape = (authorization?: string) =>
  new Request("http://inlet.test/metrics", { headers: authorization === undefined ? {} : { Authorization: authorization } });

test("without a metrics token /metrics is open to anyone, whatever Authorization says", () => {
  const guard = metricsGuard(undefined, () => sha256Hex(ADMIN_TOKEN));
  for (const authorization of [undefined, "Bearer wrong", "Basic abc"]) expect(guard(scrape(authorization))).toBeNull();
});

test("with one: the metrics token or the admin token as a bearer token, the scheme in any case", () => {
  const guard = metricsGuard(METRICS_TOKEN, () => sha256Hex(ADMIN_TOKEN));
  for (const authorization of [`Bearer ${METRICS_TOKEN}`, `bearer ${METRICS_TOKEN}`, `BEARER  ${METRICS_TOKEN}`, `Bearer ${ADMIN_TOKEN}`]) {
    expect(guard(scrape(authorization))).toBeNull();
  }
});

test("with one: no token, another scheme or a wrong token is the management API's 401 with a Bearer challenge", async () => {
  const guard = metricsGuard(METRICS_TOKEN, () => sha256Hex(ADMIN_TOKEN));
  // "Bearer " arrives as "Bearer" (header values are trimmed): a scheme without a token.
  for (const authorization of [undefined, `Basic ${btoa(`inlet:${METRICS_TOKEN}`)}`, METRICS_TOKEN, "Bearer "]) {
    const refused = guard(scrape(authorization))!;
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: "unauthorized" });
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="inlet"');
  }
  for (const authorization of [
    "Bearer wrong",
    `Bearer ${METRICS_TOKEN}x`,
    `Bearer ${METRICS_TOKEN.slice(0, -1)}`,
    `Bearer ${METRICS_TOKEN} extra`,
    `Bearer ${sha256Hex(METRICS_TOKEN)}`,
  ]) {
    const refused = guard(scrape(authorization))!;
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: "unauthorized" });
    expect(refused.headers.get("www-authenticate")).toBe(`Bearer realm="inlet", error="invalid_token", error_description="${METRICS_TOKEN_HINT}"`);
  }
});

test("the admin token in force is read at each request: after a reset the old one is refused, the new one taken; with none yet, no empty token passes", () => {
  let adminHash = sha256Hex(ADMIN_TOKEN);
  const guard = metricsGuard(METRICS_TOKEN, () => adminHash);
  expect(guard(scrape(`Bearer ${ADMIN_TOKEN}`))).toBeNull();
  adminHash = sha256Hex("admin-token-after-reset");
  expect(guard(scrape(`Bearer ${ADMIN_TOKEN}`))?.status).toBe(401);
  expect(guard(scrape("Bearer admin-token-after-reset"))).toBeNull();
  adminHash = "";
  // A token is refused as a wrong one, not passed as missing, whatever it is ("Bearer " itself
  // arrives trimmed to "Bearer": no token at all, which proves nothing about the empty hash).
  const refused = guard(scrape("Bearer anything"))!;
  expect(refused.status).toBe(401);
  expect(refused.headers.get("www-authenticate")).toBe(`Bearer realm="inlet", error="invalid_token", error_description="${METRICS_TOKEN_HINT}"`);
  expect(guard(scrape(`Bearer ${METRICS_TOKEN}`))).toBeNull();
});

test("a refused token counts as a failed admin authentication: its 429 is the answer once given; an accepted one is never counted", () => {
  const counted: Request[] = [];
  const tooMany = new Response(null, { status: 429 });
  const guard = metricsGuard(
    METRICS_TOKEN,
    () => sha256Hex(ADMIN_TOKEN),
    (request) => (counted.push(request), counted.length > 1 ? tooMany : null),
  );
  expect(guard(scrape("Bearer wrong"))?.status).toBe(401);
  expect(guard(scrape(undefined))).toBe(tooMany);
  expect(guard(scrape(`Bearer ${METRICS_TOKEN}`))).toBeNull();
  expect(guard(scrape(`Bearer ${ADMIN_TOKEN}`))).toBeNull();
  expect(counted.length).toBe(2);
});
