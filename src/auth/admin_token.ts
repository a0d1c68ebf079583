import { ADMIN_TOKEN_META } from "../records/meta_keys.ts";
import { newSecret } from "./secrets.ts";
import { sha256Hex } from "./digest.ts";
import type { MetaStore } from "../store/meta_store.ts";

const META_KEY = ADMIN_TOKEN_META;

/** How to get back in with a lost admin token: said where a token is refused. */
export const ADMIN_TOKEN_HINT = "admin token not accepted; lost it? 'inlet admin-token reset' (same --data-dir or --database-url) prints a new one";

/**
 * The hash of the admin token in force, read without writing anything (a server knows it before
 * it binds its port; `ensureAdminToken` stores or generates once the port is bound): the hash of
 * `INLET_ADMIN_TOKEN` when set, else the stored one, else "" (no token yet: none matches).
 */
export async function adminTokenHashInForce(store: MetaStore, fromEnv: string | undefined): Promise<string> {
  if (fromEnv) return sha256Hex(fromEnv);
  return (await store.getMeta(META_KEY)) ?? "";
}

/**
 * Makes sure an admin token exists. `INLET_ADMIN_TOKEN`, when set, is the token (its hash is
 * stored). Otherwise the first start generates one and returns it so it can be printed once;
 * only its SHA-256 is ever stored.
 */
export async function ensureAdminToken(store: MetaStore, fromEnv: string | undefined): Promise<{ hash: string; generated: string | null }> {
  const inForce = await adminTokenHashInForce(store, fromEnv);
  if (fromEnv) {
    if ((await store.getMeta(META_KEY)) !== inForce) await store.setMeta(META_KEY, inForce);
    return { hash: inForce, generated: null };
  }
  if (inForce) return { hash: inForce, generated: null };
  const token = `inlet_${newSecret()}`;
  const hash = sha256Hex(token);
  // Several instances may start on a new database at once: one token wins, and only the instance
  // whose token it is prints it.
  const held = await store.setMetaIfAbsent(META_KEY, hash);
  return { hash: held, generated: held === hash ? token : null };
}

/**
 * `inlet admin-token reset`: a new generated token replaces the stored hash (the way back in when
 * the token is lost). Returns the token, to be printed once; running servers read the hash again
 * within a second, so the old token stops working and the new one works without a restart —
 * except a server started with INLET_ADMIN_TOKEN, whose token that stays.
 */
export async function resetAdminToken(store: MetaStore): Promise<string> {
  const token = `inlet_${newSecret()}`;
  await store.setMeta(META_KEY, sha256Hex(token));
  return token;
}
