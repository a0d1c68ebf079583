/** The body was larger than allowed: the caller answers 413 without reading the rest. */
export class BodyTooLarge extends Error {
  override name = "BodyTooLarge";
  readonly code = "payload_too_large";
}

/** The body did not arrive whole: the client closed the connection or went idle mid-body. */
export class BodyCut extends Error {
  override name = "BodyCut";
  readonly code = "body_cut";
}

const EMPTY = new Uint8Array(0);

const cut = (received: number, declared: string | null, error: unknown) =>
  new BodyCut(
    `the body did not arrive whole: the client closed the connection or went idle after ${received} of ${declared ?? "an unknown number of"} bytes (${(error as Error)?.message || (error as Error)?.name || String(error) || "no reason given"})`,
  );

/**
 * Reads a request body into bytes, refusing more than `limit` bytes: a declared
 * `Content-Length` over the limit fails before reading, and a streamed body fails as soon
 * as it crosses the limit (the rest is never buffered).
 */
export async function readBodyLimited(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw new BodyTooLarge(`Content-Length ${declared} exceeds ${limit} bytes`);
  if (declared !== null && Number(declared) <= limit) {
    // The length is known and within the limit: one read, no chunk copying, and no stream object
    // made for the body (`request.body` builds one: ~0.5 µs of a 1 KB request's ~30).
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await request.arrayBuffer());
    } catch (error) {
      throw cut(0, declared, error);
    }
    if (bytes.length > limit) throw new BodyTooLarge(`body exceeds ${limit} bytes`);
    return bytes;
  }
  const stream = request.body;
  if (!stream) return EMPTY;
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw cut(total, declared, error);
    }
    const { done, value } = chunk;
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
