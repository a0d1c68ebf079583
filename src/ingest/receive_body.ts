import type { Arrival } from "./arrival.ts";
import { Ending, type Step } from "./ending.ts";
import { BodyCut, BodyTooLarge, readBodyLimited } from "../net/limited_body.ts";
import { ERRORS, failure } from "../net/answers.ts";

/** Reads the raw body, refusing more than `limit` bytes without buffering past it (413); a body cut short is `rejected`. */
export async function readBody(arrival: Arrival, limit: number): Promise<Step<Uint8Array>> {
  try {
    return await readBodyLimited(arrival.request, limit);
  } catch (error) {
    // The rest of the body is never read, so the connection cannot carry another request: close it
    // (a graceful stop would otherwise wait for a client still uploading).
    if (error instanceof BodyTooLarge) return Ending.stop("rejected", error.message, failure(413, ERRORS.tooLarge, arrival.requestId, { Connection: "close" }));
    // Nobody is left to read the answer; the owner still sees the request in Activity, durably.
    if (error instanceof BodyCut) return Ending.stop("rejected", error.message, failure(408, ERRORS.timedOutBody, arrival.requestId), { durable: true });
    throw error;
  }
}
