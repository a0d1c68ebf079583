import { afterAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SealedBox } from "./sealed_box.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-box-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a generated key file is 0600 and reused; secrets round-trip and never appear in the ciphertext", () => {
  const box = SealedBox.load(dir, undefined);
  expect(statSync(join(dir, "secret.key")).mode & 0o777).toBe(0o600);
  const sealed = box.seal("whsec_very_secret");
  expect(sealed).not.toContain("whsec_very_secret");
  expect(box.seal("whsec_very_secret")).not.toBe(sealed);
  expect(SealedBox.load(dir, undefined).open(sealed)).toBe("whsec_very_secret");
  expect(readFileSync(join(dir, "secret.key"), "utf8").trim()).toHaveLength(44);
});

test("INLET_SECRET_KEY takes precedence; another key cannot open, and says so", () => {
  const key = randomBytes(32).toString("base64");
  const box = SealedBox.load(dir, key);
  const sealed = box.seal("s");
  expect(SealedBox.load(join(dir, "elsewhere"), key).open(sealed)).toBe("s");
  expect(() => SealedBox.load(dir, undefined).open(sealed)).toThrow(/not the key it was stored with/);
  expect(() => SealedBox.load(dir, "c2hvcnQ=")).toThrow(/32 bytes/);
  const [version, iv, , body] = sealed.split(":");
  const forgedTag = Buffer.alloc(16, 7).toString("base64");
  expect(() => box.open([version, iv, forgedTag, body].join(":"))).toThrow();
});

test("a generated key file is 0600 whatever the umask", () => {
  const keyDir = join(dir, "strict-umask");
  // Made first: under this umask a new dir could not be written into by its owner.
  mkdirSync(keyDir);
  const before = process.umask(0o277);
  try {
    SealedBox.load(keyDir, undefined);
  } finally {
    process.umask(before);
  }
  expect(statSync(join(keyDir, "secret.key")).mode & 0o777).toBe(0o600);
});
