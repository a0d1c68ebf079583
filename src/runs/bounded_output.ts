/** Output kept in a run's result: a prefix of at most `limit` bytes, and how much there was. */
export interface BoundedText {
  text: string;
  bytes: number;
  truncated: boolean;
  /** The kept bytes (for a workflow answer that must stay byte-exact). */
  raw: Uint8Array<ArrayBuffer>;
}

/** Default bound of each captured stream (stdout, stderr, a response body) in a stored result. */
export const OUTPUT_LIMIT_BYTES = 64 * 1024;

/** The largest workflow answer (an http target's body, a command's stdout) relayed in workflow response mode. */
export const ANSWER_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads `stream` to its end (or until `signal` aborts), keeping the first `limit` bytes. It keeps
 * reading past the limit so a writer is never blocked on a full pipe.
 */
export async function readBounded(stream: ReadableStream<Uint8Array> | null | undefined, limit: number, signal?: AbortSignal): Promise<BoundedText> {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let total = 0;
  if (stream) {
    const reader = stream.getReader();
    const onAbort = () => reader.cancel().catch(() => {});
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (kept < limit) {
          const part = value.byteLength > limit - kept ? value.subarray(0, limit - kept) : value;
          chunks.push(part);
          kept += part.byteLength;
        }
      }
    } catch {
      // A cancelled or broken stream ends the capture with what was read.
    } finally {
      signal?.removeEventListener("abort", onAbort);
      reader.releaseLock();
    }
  }
  return bounded(concat(chunks, kept), total);
}

/** The first `limit` bytes of `bytes` as a BoundedText (for a stored copy of a larger capture). */
export function boundBytes(bytes: Uint8Array<ArrayBuffer>, limit: number, total = bytes.byteLength): BoundedText {
  return bytes.byteLength > limit ? bounded(bytes.slice(0, limit), total) : bounded(bytes, total);
}

function bounded(raw: Uint8Array<ArrayBuffer>, total: number): BoundedText {
  const truncated = total > raw.byteLength;
  // `stream: true` leaves a code point cut at the limit out instead of turning it into U+FFFD.
  const text = new TextDecoder("utf-8", { fatal: false }).decode(raw, { stream: truncated });
  return { text: truncated ? `${text}\n[truncated: ${total - raw.byteLength} more bytes]` : text, bytes: total, truncated, raw };
}

function concat(chunks: Uint8Array[], length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
