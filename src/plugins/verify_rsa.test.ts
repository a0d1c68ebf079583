import { expect, test } from "bun:test";
import { generateKeyPairSync, sign } from "node:crypto";
import { base64 } from "../auth/codec.ts";
import { pluginContext } from "./context.ts";
import { CERTIFICATE, SIGNATURE_SHA1, SIGNATURE_SHA256, SIGNED } from "./verify_rsa_vector.ts";

const { verifyRsa } = pluginContext("", new Date());
const bytes = (text: string) => new TextEncoder().encode(text);

test("openssl's SHA1withRSA and SHA256withRSA signatures verify with the certificate (SNS SignatureVersion 1 and 2)", () => {
  expect(verifyRsa("RSA-SHA1", CERTIFICATE, SIGNED, base64.decode(SIGNATURE_SHA1))).toBe(true);
  expect(verifyRsa("RSA-SHA256", CERTIFICATE, SIGNED, base64.decode(SIGNATURE_SHA256))).toBe(true);
  expect(verifyRsa("RSA-SHA256", CERTIFICATE, bytes(SIGNED), base64.decode(SIGNATURE_SHA256))).toBe(true);
});

test("a changed message, the other digest or another signature is false", () => {
  expect(verifyRsa("RSA-SHA256", CERTIFICATE, SIGNED.replace("hello", "hullo"), base64.decode(SIGNATURE_SHA256))).toBe(false);
  expect(verifyRsa("RSA-SHA1", CERTIFICATE, SIGNED, base64.decode(SIGNATURE_SHA256))).toBe(false);
  expect(verifyRsa("RSA-SHA256", CERTIFICATE, SIGNED, base64.decode(SIGNATURE_SHA1))).toBe(false);
});

test("a public key PEM works as the certificate does", () => {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
  const signature = sign("sha256", Buffer.from(SIGNED), privateKey);
  expect(verifyRsa("RSA-SHA256", pem, SIGNED, signature)).toBe(true);
  expect(verifyRsa("RSA-SHA256", CERTIFICATE, SIGNED, signature)).toBe(false);
});

test("malformed input is false, never a throw: a broken PEM, a key that is not RSA, an unknown algorithm, a signature that is not bytes", () => {
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const ecPem = ec.publicKey.export({ type: "spki", format: "pem" }).toString();
  const ecSignature = sign("sha256", Buffer.from(SIGNED), ec.privateKey);
  expect(verifyRsa("RSA-SHA256", ecPem, SIGNED, ecSignature)).toBe(false);
  expect(verifyRsa("RSA-SHA256", CERTIFICATE.replace("MIID", "MIIX"), SIGNED, base64.decode(SIGNATURE_SHA256))).toBe(false);
  expect(verifyRsa("RSA-SHA256", "", SIGNED, base64.decode(SIGNATURE_SHA256))).toBe(false);
  expect(verifyRsa("RSA-MD5" as "RSA-SHA1", CERTIFICATE, SIGNED, base64.decode(SIGNATURE_SHA256))).toBe(false);
  expect(verifyRsa("RSA-SHA256", CERTIFICATE, SIGNED, "not bytes" as unknown as Uint8Array)).toBe(false);
  expect(verifyRsa("RSA-SHA256", null as unknown as string, SIGNED, new Uint8Array(256))).toBe(false);
  expect(verifyRsa("RSA-SHA256", CERTIFICATE, SIGNED, new Uint8Array(0))).toBe(false);
});
