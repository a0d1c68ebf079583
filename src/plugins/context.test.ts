import { expect, test } from "bun:test";
import { createHmac, generateKeyPairSync, sign } from "node:crypto";
import { pluginContext } from "./context.ts";
import { recipes } from "./recipes.ts";

const NOW = new Date(1_750_000_000_000);
const ctx = pluginContext("It's a Secret to Everybody", NOW);
const bytes = (text: string) => new TextEncoder().encode(text);

test("ctx carries the trigger's secret, the arrival time and the recipe helpers the built-ins use", () => {
  expect(ctx.secret).toBe("It's a Secret to Everybody");
  expect(ctx.now).toBe(NOW);
  expect(ctx.recipes).toBe(recipes);
});

test("ctx.hmac: sha1/sha256/sha512, hex/base64, string or byte key and data, synchronous", () => {
  // GitHub's published vector.
  expect(ctx.hmac("sha256", ctx.secret, "Hello, World!", "hex")).toBe("757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17");
  for (const alg of ["sha1", "sha256", "sha512"] as const) {
    for (const encoding of ["hex", "base64"] as const) {
      const expected = createHmac(alg, "k\u00e9y").update("d\u00e4ta").digest(encoding);
      expect(ctx.hmac(alg, "k\u00e9y", "d\u00e4ta", encoding)).toBe(expected);
      expect(ctx.hmac(alg, bytes("k\u00e9y"), bytes("d\u00e4ta"), encoding)).toBe(expected);
    }
  }
  // A key that is not UTF-8 text (a base64-decoded whsec_ secret) is used as its bytes.
  const key = Uint8Array.from([0xff, 0x00, 0x80]);
  expect(ctx.hmac("sha256", key, "x", "base64")).toBe(createHmac("sha256", key).update("x").digest("base64"));
});

test("ctx.timingSafeEqual: strings or bytes, mixed, any lengths", () => {
  expect(ctx.timingSafeEqual("sha256=ab", "sha256=ab")).toBe(true);
  expect(ctx.timingSafeEqual("sha256=ab", "sha256=ac")).toBe(false);
  expect(ctx.timingSafeEqual("short", "a longer value")).toBe(false);
  expect(ctx.timingSafeEqual("", "")).toBe(true);
  expect(ctx.timingSafeEqual(bytes("\u00e9"), "\u00e9")).toBe(true);
  expect(ctx.timingSafeEqual(Uint8Array.from([1, 2]), Uint8Array.from([1, 2, 3]))).toBe(false);
});

test("ctx.base64 and ctx.hex round-trip and refuse malformed text with a TypeError", () => {
  const raw = Uint8Array.from([0, 1, 254, 255]);
  expect(ctx.hex.encode(raw)).toBe("0001feff");
  expect(ctx.hex.decode("0001FEFF")).toEqual(raw);
  expect(ctx.base64.encode(raw)).toBe("AAH+/w==");
  expect(ctx.base64.decode("AAH+/w")).toEqual(raw);
  for (const [codec, bad] of [
    [ctx.hex, "0g"],
    [ctx.hex, "abc"],
    [ctx.base64, "AA$="],
    [ctx.base64, "A"],
  ] as const) {
    expect(() => codec.decode(bad)).toThrow(TypeError);
  }
});

test("ctx.verifySignature: Ed25519 raw key; anything malformed is false, never a throw", () => {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = new Uint8Array(publicKey.export({ format: "der", type: "spki" })).slice(-32);
  const signature = new Uint8Array(sign(null, bytes("1700000000{}"), privateKey));
  expect(ctx.verifySignature("ed25519", raw, "1700000000{}", signature)).toBe(true);
  expect(ctx.verifySignature("ed25519", raw, "1700000001{}", signature)).toBe(false);
  expect(ctx.verifySignature("ed25519", raw.slice(1), "1700000000{}", signature)).toBe(false);
  expect(ctx.verifySignature("ecdsa-p256-sha256", raw, "1700000000{}", signature.slice(3))).toBe(false);
});
