import { describe, expect, test } from "bun:test";
import { createHmac, generateKeyPairSync } from "node:crypto";
import { authenticateAppRequest } from "./authenticate.ts";
import { pluginContext } from "./context.ts";
import { signedTimestampRecipe, type SignedTimestampRecipe } from "./signed_timestamp.ts";
import type { InletPlugin, PluginRequest } from "./types.ts";

const NOW = new Date(1_750_000_000_000);
const T = "1750000000";
const BODY = Uint8Array.from([0x7b, 0xff, 0xfe, 0x00, 0x7d]); // not UTF-8: the recipe signs bytes
const req = (headers: Record<string, string>, rawBody = BODY): PluginRequest => ({
  method: "POST",
  url: "https://inlet.example/webhooks/t?x=1",
  headers: new Headers(headers),
  rawBody,
});
const hmac = (alg: string, key: string, ...parts: Array<string | Uint8Array>) => {
  const h = createHmac(alg, key);
  for (const p of parts) h.update(p);
  return h;
};
const plugin = (spec: SignedTimestampRecipe): InletPlugin => ({ id: "t", name: "T", secret: { label: "s", generated: false }, ...signedTimestampRecipe(spec) });

const LIST: SignedTimestampRecipe = {
  header: "Acme-Signature",
  list: { separator: ",", timestampKey: "t", signatureKey: "v1" },
  layout: "{timestamp}.{body}",
  signature: { hmac: "sha256", encoding: "hex" },
  toleranceSeconds: 300,
};

describe("signed-timestamp recipe, list header", () => {
  const recipe = signedTimestampRecipe(LIST);
  const good = hmac("sha256", "k", T, ".", BODY).digest("hex");

  test("verifies an HMAC over the timestamp and the raw bytes, computed independently", () => {
    expect(recipe.verify(req({ "acme-signature": `t=${T},v1=${good}` }), pluginContext("k", NOW))).toBe(true);
    expect(recipe.timestamp(req({ "acme-signature": `t=${T},v1=${good}` }))).toBe(1750000000);
  });

  test("any of several signatures passes (a secret being rolled); upper-case hex too", () => {
    expect(recipe.verify(req({ "acme-signature": `t=${T},v1=${"0".repeat(64)},v1=${good.toUpperCase()}` }), pluginContext("k", NOW))).toBe(true);
  });

  test("a wrong secret, a changed timestamp, a missing part or an empty secret fails", () => {
    const ctx = pluginContext("k", NOW);
    expect(recipe.verify(req({ "acme-signature": `t=${T},v1=${good}` }), pluginContext("other", NOW))).toBe(false);
    expect(recipe.verify(req({ "acme-signature": `t=1750000001,v1=${good}` }), ctx)).toBe(false);
    expect(recipe.verify(req({ "acme-signature": `v1=${good}` }), ctx)).toBe(false);
    expect(recipe.verify(req({ "acme-signature": `t=${T}` }), ctx)).toBe(false);
    expect(recipe.verify(req({ "acme-signature": `t=${T},v1=${good}` }), pluginContext("", NOW))).toBe(false);
  });

  test("sign() writes the provider's list and the host accepts it", async () => {
    const signed = recipe.sign(req({}), pluginContext("k", NOW));
    expect(signed.headers).toEqual({ "Acme-Signature": `t=${T},v1=${good}` });
    expect(await authenticateAppRequest(plugin(LIST), req(signed.headers), pluginContext("k", NOW))).toEqual({ ok: true });
  });

  test("sign() with no secret throws cannot sign", () => {
    expect(() => recipe.sign(req({}), pluginContext("", NOW))).toThrow(/^cannot sign: /);
  });

  test("a host with several candidate secrets calls verify once per candidate", () => {
    const signed = req(recipe.sign(req({}), pluginContext("old", NOW)).headers);
    expect(["new", "old"].map((secret) => recipe.verify(signed, pluginContext(secret, NOW)))).toEqual([false, true]);
  });
});

describe("signed-timestamp recipe, separate headers", () => {
  const spec: SignedTimestampRecipe = {
    header: "x-sig",
    timestampHeader: "x-ts",
    unit: "ms",
    prefix: "v0=",
    layout: "v0:{method}:{url}:{header:x-id}:{timestamp}:{body}",
    signature: { hmac: "sha512", encoding: "base64" },
    toleranceSeconds: 60,
    alsoCredentialHeaders: ["X-Other"],
  };
  const recipe = signedTimestampRecipe(spec);
  const ms = String(NOW.getTime());

  test("the layout template places method, URL, a header, the timestamp and the bytes", () => {
    const expected = hmac("sha512", "k", `v0:POST:https://inlet.example/webhooks/t?x=1:id-1:${ms}:`, BODY).digest("base64");
    const r = req({ "x-sig": `v0=${expected}`, "x-ts": ms, "x-id": "id-1" });
    expect(recipe.verify(r, pluginContext("k", NOW))).toBe(true);
    expect(recipe.timestamp(r)).toBe(NOW.getTime() / 1000);
    // Unpadded base64 is the same signature.
    expect(recipe.verify(req({ "x-sig": `v0=${expected.replace(/=+$/, "")}`, "x-ts": ms, "x-id": "id-1" }), pluginContext("k", NOW))).toBe(true);
  });

  test("a missing signed header, a wrong prefix or a bare prefix fails; signing without it throws", () => {
    const signed = recipe.sign(req({ "x-id": "id-1" }), pluginContext("k", NOW)).headers;
    expect(recipe.verify(req({ ...signed, "x-id": "id-1" }), pluginContext("k", NOW))).toBe(true);
    expect(recipe.verify(req(signed), pluginContext("k", NOW))).toBe(false);
    expect(recipe.verify(req({ ...signed, "x-id": "id-1", "x-sig": signed["x-sig"].replace("v0=", "v1=") }), pluginContext("k", NOW))).toBe(false);
    expect(recipe.verify(req({ ...signed, "x-id": "id-1", "x-sig": "v0=" }), pluginContext("k", NOW))).toBe(false);
    expect(() => recipe.sign(req({}), pluginContext("k", NOW))).toThrow(/cannot sign: a header the signature covers is missing/);
  });

  test("credential headers are the signature header and the extra ones, lower-case", () => {
    expect(recipe.credentialHeaders).toEqual(["x-sig", "x-other"]);
  });

  test("a recipe must say where its timestamp is", () => {
    expect(() => signedTimestampRecipe({ ...spec, timestampHeader: undefined })).toThrow(/either list or timestampHeader/);
  });
});

describe("signed-timestamp recipe, asymmetric", () => {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const spec: SignedTimestampRecipe = {
    header: "x-sig",
    timestampHeader: "x-ts",
    layout: "{timestamp}{body}",
    signature: { scheme: "ecdsa-p256-sha256", encoding: "base64", publicKey: "base64" },
    toleranceSeconds: 300,
  };
  const recipe = signedTimestampRecipe(spec);
  const pem = privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  const publicPem = publicKey.export({ format: "pem", type: "spki" }).toString();

  test("signs with the private key and verifies with the public key, PEM armour or not", () => {
    const signed = req(recipe.sign(req({}), pluginContext(pem, NOW)).headers);
    expect(recipe.verify(signed, pluginContext(publicPem, NOW))).toBe(true);
    expect(recipe.verify(signed, pluginContext(publicKey.export({ format: "der", type: "spki" }).toString("base64"), NOW))).toBe(true);
    expect(recipe.verify({ ...signed, rawBody: Uint8Array.from([1]) }, pluginContext(publicPem, NOW))).toBe(false);
  });

  test("a malformed public key or signature is false, a wrong private key type cannot sign", () => {
    const signed = req(recipe.sign(req({}), pluginContext(pem, NOW)).headers);
    expect(recipe.verify(signed, pluginContext("not base64 !", NOW))).toBe(false);
    expect(recipe.verify(req({ "x-ts": T, "x-sig": "%%%" }), pluginContext(publicPem, NOW))).toBe(false);
    const ed = generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    expect(() => recipe.sign(req({}), pluginContext(ed, NOW))).toThrow(/cannot sign: a ecdsa-p256-sha256 signing key must be ec, not ed25519/);
    expect(() => recipe.sign(req({}), pluginContext("garbage", NOW))).toThrow(/cannot sign: the signing key is not a private key/);
  });
});
