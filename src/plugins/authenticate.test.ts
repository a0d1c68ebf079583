import { expect, test } from "bun:test";
import { authenticateAppRequest } from "./authenticate.ts";
import { pluginContext } from "./context.ts";
import { ProviderFetchRefused, ProviderUnavailable } from "./provider_errors.ts";
import type { InletPlugin, PluginRequest } from "./types.ts";

const NOW = new Date(1_750_000_000_000);
const SECONDS = NOW.getTime() / 1000;
const req: PluginRequest = { method: "POST", url: "https://inlet.example/webhooks/t", headers: new Headers(), rawBody: new Uint8Array() };
const base = { id: "acme", name: "Acme", secret: { label: "Signing secret", generated: false } };
/** A plugin whose signature always holds and whose signed timestamp is `ts()`. */
const stamped = (ts: () => number | null): InletPlugin => ({ ...base, verify: () => true, timestamp: ts, toleranceSeconds: 300 });
const check = (plugin: InletPlugin) => authenticateAppRequest(plugin, req, pluginContext("s", NOW));

test("the tolerance is two-sided and inclusive: exactly toleranceSeconds away passes, one second more is a failure", async () => {
  for (const skew of [-300, 0, 300]) expect(await check(stamped(() => SECONDS + skew))).toEqual({ ok: true });
  expect(await check(stamped(() => SECONDS - 301))).toEqual({ ok: false, reason: "acme timestamp too old by 301 s (tolerance 300 s)" });
  expect(await check(stamped(() => SECONDS + 301))).toEqual({ ok: false, reason: "acme timestamp in the future by 301 s (tolerance 300 s)" });
});

test("with a declared tolerance, a missing, non-finite or throwing timestamp() fails; never a pass", async () => {
  const boom = () => {
    throw new TypeError("no header");
  };
  for (const ts of [() => null, () => Number.NaN, () => Number.POSITIVE_INFINITY, boom]) {
    expect(await check(stamped(ts))).toEqual({ ok: false, reason: "acme timestamp missing or malformed" });
  }
});

test("verify may be async; only true passes, and a throw is a failure with its reason", async () => {
  expect(await check({ ...base, verify: async () => true })).toEqual({ ok: true });
  expect(await check({ ...base, verify: async () => false })).toEqual({ ok: false, reason: "acme signature missing or invalid" });
  // Contract: boolean. A truthy non-boolean is not taken for a pass.
  expect((await check({ ...base, verify: () => "yes" as never })).ok).toBe(false);
  const threw = await check({ ...base, verify: async () => Promise.reject(new Error("bad key")) });
  expect(threw).toEqual({ ok: false, reason: "acme verification threw: bad key" });
});

test("the signature is checked before the timestamp: a forged request never reaches timestamp()", async () => {
  let asked = false;
  const plugin: InletPlugin = { ...base, verify: () => false, timestamp: () => ((asked = true), SECONDS), toleranceSeconds: 300 };
  expect((await check(plugin)).ok).toBe(false);
  expect(asked).toBe(false);
});

test("a provider that cannot be reached is neither a pass nor a failure: ProviderUnavailable is thrown on (the host answers 503); a refused fetch is a failure", async () => {
  const unavailable = new ProviderUnavailable("signing certificate from https://sns.example/x.pem failed: timed out", "sns.example", 30);
  await expect(
    check({
      ...base,
      verify: async () => {
        throw unavailable;
      },
    }),
  ).rejects.toBe(unavailable);
  const refused = new ProviderFetchRefused("signing certificate: evil.test is not one of the provider's hosts");
  expect(
    await check({
      ...base,
      verify: async () => {
        throw refused;
      },
    }),
  ).toEqual({ ok: false, reason: `acme verification threw: ${refused.message}` });
});

test("what the context refused (a URL outside the fetch rule, a JWT) is added to the reason of a request that did not verify", async () => {
  const fetching: InletPlugin = {
    ...base,
    async verify(_req, ctx) {
      try {
        await ctx.fetchText("https://evil.test/cert.pem", { hosts: /^sns\.example$/, purpose: "signing certificate" });
      } catch (error) {
        if ((error as { code?: string }).code === "provider_fetch_refused") return false;
        throw error;
      }
      return true;
    },
  };
  const reasonOf = async (plugin: InletPlugin) => {
    const result = await check(plugin);
    return result.ok ? "passed" : result.reason;
  };
  expect(await reasonOf(fetching)).toStartWith("acme signature missing or invalid (signing certificate: evil.test is not one of the provider's hosts");
  const jwt: InletPlugin = {
    ...base,
    verify: async (_req, ctx) =>
      (await ctx.verifyJwt("not.a.jwt", { jwksUrl: "https://keys.example/certs", hosts: /^keys\.example$/, issuer: "i", audience: "a" })).ok,
  };
  expect(await reasonOf(jwt)).toStartWith("acme signature missing or invalid (JWT refused: refused:");
});

test("ctx.refuse(reason) is false, and its reason is added to the reason of the request it refused", async () => {
  const listing: InletPlugin = {
    ...base,
    verify: (_req, ctx) => ctx.refuse("topic arn:aws:sns:us-east-1:123456789012:other is not one of the trigger's Topic ARNs"),
  };
  expect(await check(listing)).toEqual({
    ok: false,
    reason: "acme signature missing or invalid (topic arn:aws:sns:us-east-1:123456789012:other is not one of the trigger's Topic ARNs)",
  });
});
