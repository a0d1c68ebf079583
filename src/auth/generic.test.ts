import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import type { AuthConfig } from "../records/trigger.ts";
import { authenticate, credentialHeaders } from "./generic.ts";

const secret = "s3cr3t-value-for-tests";
const body = new TextEncoder().encode('{"a": 1,  "b":[2]}');
const auth = (over: Partial<AuthConfig>): AuthConfig => ({ type: "none", signatureHeader: "X-Signature", encoding: "hex", ...over }) as AuthConfig;
const h = (headers: Record<string, string>) => new Headers(headers);
const sig = (alg: "sha256" | "sha512", enc: "hex" | "base64", data: Uint8Array = body, key = secret) => createHmac(alg, key).update(data).digest(enc);

describe("none", () => {
  test("the address alone is the credential", () => {
    expect(authenticate(auth({ type: "none" }), null, h({}), body)).toEqual({ ok: true });
  });
});

describe("bearer", () => {
  const a = auth({ type: "bearer" });
  test("exactly Bearer, one space, the token", () => {
    expect(authenticate(a, secret, h({ Authorization: `Bearer ${secret}` }), body).ok).toBe(true);
  });
  test.each([
    ["missing header", {}],
    ["two spaces", { Authorization: `Bearer  ${secret}` }],
    ["lower-case scheme", { Authorization: `bearer ${secret}` }],
    ["no space", { Authorization: `Bearer${secret}` }],
    ["wrong token", { Authorization: "Bearer nope" }],
    ["token prefix only", { Authorization: `Bearer ${secret.slice(0, -1)}` }],
    ["empty token", { Authorization: "Bearer " }],
  ])("rejects %s", (_, headers) => {
    const result = authenticate(a, secret, h(headers as Record<string, string>), body);
    expect(result.ok).toBe(false);
  });
  test("the reason says what went wrong", () => {
    expect(authenticate(a, secret, h({}), body)).toEqual({ ok: false, reason: "missing Authorization header" });
    expect(authenticate(a, secret, h({ Authorization: "Bearer nope" }), body)).toEqual({ ok: false, reason: "wrong bearer token" });
  });
});

describe("header", () => {
  const a = auth({ type: "header", headerName: "X-Webhook-Secret" });
  test("name matched case-insensitively, value exactly", () => {
    expect(authenticate(a, secret, h({ "x-webhook-secret": secret }), body).ok).toBe(true);
    expect(authenticate(a, secret, h({ "X-WEBHOOK-SECRET": secret }), body).ok).toBe(true);
  });
  test("value must be exact", () => {
    expect(authenticate(a, secret, h({ "X-Webhook-Secret": secret.toUpperCase() }), body).ok).toBe(false);
    expect(authenticate(a, secret, h({ "X-Webhook-Secret": `${secret}x` }), body).ok).toBe(false);
    expect(authenticate(a, secret, h({ "X-Other": secret }), body)).toEqual({ ok: false, reason: "missing header X-Webhook-Secret" });
  });
});

describe.each(["sha256", "sha512"] as const)("hmac-%s", (alg) => {
  const type = `hmac-${alg}` as const;
  test.each(["hex", "base64"] as const)("%s digest with and without prefix", (encoding) => {
    const a = auth({ type, encoding });
    const digest = sig(alg, encoding);
    expect(authenticate(a, secret, h({ "X-Signature": `${alg}=${digest}` }), body).ok).toBe(true);
    expect(authenticate(a, secret, h({ "X-Signature": digest }), body).ok).toBe(true);
  });
  test("hex is case-insensitive; base64 padding is optional", () => {
    expect(authenticate(auth({ type }), secret, h({ "X-Signature": sig(alg, "hex").toUpperCase() }), body).ok).toBe(true);
    const b64 = sig(alg, "base64");
    expect(authenticate(auth({ type, encoding: "base64" }), secret, h({ "X-Signature": b64.replace(/=+$/, "") }), body).ok).toBe(true);
  });
  test("any byte of difference in the body fails", () => {
    const a = auth({ type });
    const reformatted = new TextEncoder().encode('{"a":1,"b":[2]}');
    expect(authenticate(a, secret, h({ "X-Signature": sig(alg, "hex") }), reformatted)).toEqual({ ok: false, reason: "signature does not match the body" });
  });
  test("a replayed signed request passes (replays are stopped by Payload Hash dedup, not auth)", () => {
    const a = auth({ type });
    const headers = h({ "X-Signature": sig(alg, "hex") });
    expect(authenticate(a, secret, headers, body).ok).toBe(true);
    expect(authenticate(a, secret, headers, body).ok).toBe(true);
  });
  test.each([
    ["the other algorithm's prefix", () => `${alg === "sha256" ? "sha512" : "sha256"}=${sig(alg, "hex")}`],
    ["a truncated digest", () => sig(alg, "hex").slice(0, -2)],
    ["non-hex characters", () => `${sig(alg, "hex").slice(0, -1)}g`],
    ["base64 in hex mode", () => sig(alg, "base64")],
    ["an empty value", () => ""],
    ["the wrong key", () => sig(alg, "hex", body, "other-secret")],
  ])("rejects %s", (_, value) => {
    expect(authenticate(auth({ type }), secret, h({ "X-Signature": value() }), body).ok).toBe(false);
  });
  test("the signature header is configurable and matched case-insensitively", () => {
    const a = auth({ type, signatureHeader: "X-Hub-Sig" });
    expect(authenticate(a, secret, h({ "x-hub-sig": sig(alg, "hex") }), body).ok).toBe(true);
    expect(authenticate(a, secret, h({ "X-Signature": sig(alg, "hex") }), body)).toEqual({ ok: false, reason: "missing signature header X-Hub-Sig" });
  });
  test("a malformed value is reported as a format problem", () => {
    const result = authenticate(auth({ type }), secret, h({ "X-Signature": "zzz" }), body);
    expect(result.ok).toBe(false);
    expect((result as { reason: string }).reason).toContain("invalid signature format");
  });
});

test("credential headers cover every mode's secret-bearing header", () => {
  expect(credentialHeaders(auth({ type: "bearer" }))).toContain("authorization");
  expect(credentialHeaders(auth({ type: "header", headerName: "X-Token" }))).toContain("x-token");
  expect(credentialHeaders(auth({ type: "hmac-sha512", signatureHeader: "X-Sig" }))).toContain("x-sig");
});
