/**
 * INLET_SECRET_KEY's 32 bytes, from base64 in either alphabet (standard or URL-safe), padding
 * optional; or why it is not such a key, without a word of the key itself.
 *
 * @example
 * decodeSecretKey(Buffer.alloc(32).toString("base64url")) // { key: <32 bytes> }
 * decodeSecretKey("c2hvcnQ=") // { problem: "decodes to 5 bytes" }
 */
export function decodeSecretKey(text: string): { key: Buffer } | { problem: string } {
  const trimmed = text.trim();
  if (!/^([A-Za-z0-9+/]+|[A-Za-z0-9_-]+)={0,2}$/.test(trimmed) || trimmed.replace(/=+$/, "").length % 4 === 1) {
    return { problem: "is not base64: only letters, digits, + and / (or - and _) and = padding may appear" };
  }
  const key = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (key.length !== 32) return { problem: `decodes to ${key.length} bytes` };
  return { key };
}
