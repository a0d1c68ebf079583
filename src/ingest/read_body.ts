/** The body was larger than allowed: the caller answers 413 without reading the rest. */
export class BodyTooLarge extends Error {
  override name = "BodyTooLarge";
  readonly code = "payload_too_large";
}

const EMPTY = new Uint8Array(0);

/**
 * Reads a request body into bytes, refusing more than `limit` bytes: a declared
 * `Content-Length` over the limit fails before reading, and a streamed body fails as soon
 * as it crosses the limit (the rest is never buffered).
 */
export async function readBodyLimited(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw new BodyTooLarge(`Content-Length ${declared} exceeds ${limit} bytes`);
  const stream = request.body;
  if (!stream) return EMPTY;
  if (declared !== null && Number(declared) <= limit) {
    // The length is known and within the limit: one read, no chunk copying.
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.length > limit) throw new BodyTooLarge(`body exceeds ${limit} bytes`);
    return bytes;
  }
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      reader.cancel().catch(() => {});
      throw new BodyTooLarge(`body exceeds ${limit} bytes`);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
