/** Keys of the store's `meta` table that several parts of inlet read or write. */

/** Fingerprint of the secret key every instance of one store must share (set by the first start). */
export const KEY_FINGERPRINT_META = "secret_key_fingerprint";

/** SHA-256 of the admin token (the token itself is never stored). */
export const ADMIN_TOKEN_META = "admin_token_sha256";
