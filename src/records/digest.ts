/** Digest algorithms a plugin may ask `ctx.hmac` / `ctx.hash` for, and the host uses itself. */
export type HashAlgorithm = "sha1" | "sha256" | "sha512";

/** Text encodings of a digest. */
export type DigestEncoding = "hex" | "base64";
