import { afterAll, expect, test } from "bun:test";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { JwtVerifier } from "./jwt.ts";
import { KeyFetchGate } from "./key_fetch_gate.ts";

// JWKS fetches against a local host that fails on demand and counts its hits; the gate's clock is
// the test's, so the cooldown's end is reached without waiting for it.
const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256", use: "sig" };
let answer: () => Response = () => new Response("down", { status: 500 });
let hits = 0;
const host = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch() {
    hits++;
    return answer();
  },
});
afterAll(() => host.stop(true));

let urls = 0;
/** A fresh JWKS URL of the host (the gate counts per URL), its fetches counted from 0. */
function freshUrl() {
  hits = 0;
  answer = () => new Response("down", { status: 500 });
  return `http://127.0.0.1:${host.port}/jwks-${++urls}.json`;
}
const token = (kid = "k1") => new SignJWT({ exp: Math.floor(Date.now() / 1000) + 60 }).setProtectedHeader({ alg: "ES256", kid }).sign(privateKey);
const verifierOf = (url: string, gate: KeyFetchGate) => new JwtVerifier({ algorithms: ["ES256"], jwksUrl: url }, gate);

test("a JWKS URL that fails is fetched once for 50 requests, in flight together or one after another; each is refused with the reason", async () => {
  const gate = new KeyFetchGate(() => 1_000_000);
  const url = freshUrl();
  const verifier = verifierOf(url, gate);
  const header = `Bearer ${await token()}`;
  const together = await Promise.all(Array.from({ length: 25 }, () => verifier.verify(header, null, new Date())));
  for (let i = 0; i < 25; i++) together.push(await verifier.verify(header, null, new Date()));
  // Another trigger naming the same URL shares its count.
  together.push(await verifierOf(url, gate).verify(header, null, new Date()));
  expect(hits).toBe(1);
  for (const result of together) expect(result.ok).toBe(false);
  expect(together[0]).toEqual({ ok: false, reason: "JWT keys not fetched: HTTP 500, not 200" });
  expect(together[30]).toEqual({
    ok: false,
    reason: `JWT keys not fetched: the last fetch of ${url} failed (HTTP 500, not 200); not fetched again before ${new Date(1_030_000).toISOString()}`,
  });
});

test("the wait is 30 s after a failure, doubling up to 5 min while the URL keeps failing; a success resets it", async () => {
  let now = 5_000_000;
  const gate = new KeyFetchGate(() => now);
  const url = freshUrl();
  const verifier = verifierOf(url, gate);
  const header = `Bearer ${await token()}`;
  const attempt = async (advanceMs: number) => {
    now += advanceMs;
    await verifier.verify(header, null, new Date());
    return hits;
  };
  expect(await attempt(0)).toBe(1);
  let fetches = 1;
  for (const wait of [30_000, 60_000, 120_000, 240_000, 300_000, 300_000]) {
    expect(await attempt(wait - 1)).toBe(fetches);
    expect(await attempt(1)).toBe(++fetches);
  }
  // The host recovers: the next fetch after the wait succeeds and the token verifies.
  answer = () => Response.json({ keys: [jwk] });
  now += 300_000;
  expect(await verifier.verify(header, null, new Date())).toEqual({ ok: true });
  expect(hits).toBe(++fetches);
  // Failing again (each attempt by a new verifier of the URL, as a new trigger version makes, so it fetches): the wait is 30 s again, not 5 min.
  answer = () => new Response("down", { status: 503 });
  const unknownKid = `Bearer ${await token("k2")}`;
  const refetch = async (advanceMs: number) => {
    now += advanceMs;
    await verifierOf(url, gate).verify(unknownKid, null, new Date());
    return hits;
  };
  expect(await refetch(0)).toBe(++fetches);
  expect(await refetch(29_999)).toBe(fetches);
  expect(await refetch(1)).toBe(++fetches);
});

test("an answer that is not a JSON Web Key Set, or no answer, is a failure too", async () => {
  const gate = new KeyFetchGate(() => 0);
  for (const [respond, reason] of [
    [() => new Response("<html>"), "the answer is not JSON"],
    [() => Response.json({ keys: "none" }), 'the answer is not a JSON Web Key Set ({"keys":[…]})'],
    [() => new Response(null, { status: 302, headers: { Location: "http://127.0.0.1:9/" } }), "HTTP 302, not 200"],
  ] as const) {
    const url = freshUrl();
    answer = respond;
    const verifier = verifierOf(url, gate);
    expect(await verifier.verify(`Bearer ${await token()}`, null, new Date())).toEqual({ ok: false, reason: `JWT keys not fetched: ${reason}` });
    expect((await verifier.verify(`Bearer ${await token()}`, null, new Date())).ok).toBe(false);
    expect(hits).toBe(1);
  }
  const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const nobody = `http://127.0.0.1:${closed.port}/jwks.json`;
  await closed.stop(true);
  const refused = await verifierOf(nobody, gate).verify(`Bearer ${await token()}`, null, new Date());
  expect(refused.ok).toBe(false);
  expect((refused as { reason: string }).reason).toStartWith("JWT keys not fetched: ");
  expect(((await verifierOf(nobody, gate).verify(`Bearer ${await token()}`, null, new Date())) as { reason: string }).reason).toContain(
    "not fetched again before",
  );
});
