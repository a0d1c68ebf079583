import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../src/auth/digest.ts";
import { SealedBox } from "../src/auth/sealed_box.ts";
import { ADMIN_TOKEN_META } from "../src/records/meta_keys.ts";
import { sqlitePathIn } from "../src/store/sqlite/sqlite_store.ts";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "./support/server.ts";

/** Every secret a data dir can come to hold: generated ones, pasted app secrets, and the previous ones a rotation keeps. */
async function storeEverySecret(server: TestServer): Promise<string[]> {
  const secrets: string[] = [];
  for (const auth of [{ type: "bearer" }, { type: "basic" }, { type: "jwt", jwt: { algorithms: ["HS256"] } }, { type: "hmac-sha256" }]) {
    secrets.push((await server.createTrigger({ name: auth.type, auth })).secret);
  }
  secrets.push((await server.createTrigger({ name: "github", app: "github" })).secret);
  const pasted = `whsec_${randomBytes(24).toString("base64url")}`;
  const stripe = await server.createTrigger({ name: "stripe", app: "stripe", appSecret: pasted });
  const renewed = `whsec_${randomBytes(24).toString("base64url")}`;
  expect((await server.api("POST", `/api/triggers/${stripe.id}/rotate`, { overlapSeconds: 3600, appSecret: renewed })).status).toBe(200);
  const hmac = await server.createTrigger({ name: "rotated", auth: { type: "hmac-sha512" } });
  const rotated = await server.api("POST", `/api/triggers/${hmac.id}/rotate`, { overlapSeconds: 3600 });
  expect(rotated.status).toBe(200);
  secrets.push(pasted, renewed, hmac.secret, rotated.body.secret);
  for (const secret of secrets) expect(secret).toMatch(/^\S{20,}$/);
  return secrets;
}

/** The sealed values the triggers table holds, columns and the rotation's alike. */
function sealedValues(dataDir: string): string[] {
  const db = new Database(sqlitePathIn(dataDir), { readonly: true });
  const rows = db
    .query<{ config: string; secret_sealed: string | null; app_secret_sealed: string | null }, []>(
      "SELECT config, secret_sealed, app_secret_sealed FROM triggers",
    )
    .all();
  db.close();
  return rows.flatMap((row) => {
    const rotation = JSON.parse(row.config).rotation ?? {};
    return [row.secret_sealed, row.app_secret_sealed, rotation.previousSecretSealed, rotation.previousAppSecretSealed].filter(
      (v): v is string => typeof v === "string",
    );
  });
}

/** No file of the data dir (database, WAL, shared memory) holds any of `plain`. */
function expectNowhereInDataDir(dataDir: string, plain: string[]): void {
  for (const file of readdirSync(dataDir)) {
    const bytes = readFileSync(join(dataDir, file));
    for (const text of plain) expect({ file, found: bytes.includes(text) }).toEqual({ file, found: false });
  }
}

test("stored secrets are AES-256-GCM sealed with the data dir's 0600 key file; the admin token only as its SHA-256", async () => {
  const server = await startTestServer();
  try {
    const secrets = await storeEverySecret(server);
    expectNowhereInDataDir(server.dataDir, [...secrets, ADMIN_TOKEN]);
    const keyFile = join(server.dataDir, "secret.key");
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const box = SealedBox.load(server.dataDir, undefined);
    const sealed = sealedValues(server.dataDir);
    expect(sealed.map((value) => box.open(value)).sort()).toEqual([...secrets].sort());
    expect(await server.core.store.getMeta(ADMIN_TOKEN_META)).toBe(sha256Hex(ADMIN_TOKEN));
  } finally {
    await server.close();
  }
});

test("with INLET_SECRET_KEY, secrets are sealed with that key and no key file is written", async () => {
  const key = randomBytes(32);
  const server = await startTestServer({ secretKey: key.toString("base64") });
  try {
    const secrets = await storeEverySecret(server);
    expect(existsSync(join(server.dataDir, "secret.key"))).toBe(false);
    expectNowhereInDataDir(server.dataDir, secrets);
    const box = SealedBox.fromKey(key);
    expect(
      sealedValues(server.dataDir)
        .map((value) => box.open(value))
        .sort(),
    ).toEqual([...secrets].sort());
  } finally {
    await server.close();
  }
});
