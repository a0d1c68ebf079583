/** Keys of the store's `meta` table that several parts of inlet read or write. */

/** Fingerprint of the secret key every instance of one store must share (set by the first start). */
export const KEY_FINGERPRINT_META = "secret_key_fingerprint";

/** SHA-256 of the admin token (the token itself is never stored). */
export const ADMIN_TOKEN_META = "admin_token_sha256";

/**
 * The base URL the last server started on this store serves trigger URLs under, so that CLI
 * commands print the same URLs and curl commands as the server (unless given --base-url).
 */
export const BASE_URL_META = "base_url";
