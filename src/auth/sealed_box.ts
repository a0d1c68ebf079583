import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OWNER_ONLY } from "../config/owner_only_file.ts";
import { decodeSecretKey } from "../config/secret_key.ts";

const VERSION = "v1";

/** A key's 32 bytes from its base64 text (the one decoder INLET_SECRET_KEY is checked with); throws `message` and why. */
function keyFrom(text: string, message: string): Buffer {
  const decoded = decodeSecretKey(text);
  if ("problem" in decoded) throw new Error(`${message}: it ${decoded.problem}`);
  return decoded.key;
}

/** Encrypts stored secrets with AES-256-GCM; the ciphertext names its format version. */
export class SealedBox {
  private constructor(private readonly key: Buffer) {}

  /**
   * The key from `INLET_SECRET_KEY` (base64 of 32 bytes) or from `<dataDir>/secret.key`,
   * created with mode 0600 on first use.
   */
  static load(dataDir: string, envKey: string | undefined): SealedBox {
    if (envKey) return new SealedBox(keyFrom(envKey, "INLET_SECRET_KEY must be base64 of exactly 32 bytes"));
    const file = join(dataDir, "secret.key");
    const existing = SealedBox.fromKeyFile(file);
    if (existing) return existing;
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const key = randomBytes(32);
    writeFileSync(file, key.toString("base64") + "\n", { mode: OWNER_ONLY, flag: "wx" });
    // The mode given at creation is narrowed by the umask; 0600 whatever the umask.
    chmodSync(file, OWNER_ONLY);
    return new SealedBox(key);
  }

  /** The key a key file holds (its mode tightened to 0600), or null when there is no such file. */
  static fromKeyFile(file: string): SealedBox | null {
    if (!existsSync(file)) return null;
    const mode = statSync(file).mode & 0o777;
    if (mode & 0o077) chmodSync(file, OWNER_ONLY);
    return new SealedBox(keyFrom(readFileSync(file, "utf8"), `${file} does not hold base64 of 32 bytes; restore it or set INLET_SECRET_KEY`));
  }

  /** For tests: a box with a fixed key. */
  static fromKey(key: Uint8Array): SealedBox {
    return new SealedBox(Buffer.from(key));
  }

  /** Names the key without revealing it: instances sharing a store check they share the key. */
  fingerprint(): string {
    return createHmac("sha256", this.key).update("inlet secret key fingerprint v1").digest("hex").slice(0, 32);
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return `${VERSION}:${iv.toString("base64")}:${cipher.getAuthTag().toString("base64")}:${body.toString("base64")}`;
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(":");
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("stored secret has an unknown format");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    try {
      return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
    } catch {
      throw new Error("cannot decrypt a stored secret: INLET_SECRET_KEY or the data dir's secret.key is not the key it was stored with");
    }
  }
}
