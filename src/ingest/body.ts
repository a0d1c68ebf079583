import type { Arrival } from "./arrival.ts";
import { Ending, type Step } from "./ending.ts";
import { BodyTooLarge, readBodyLimited } from "./read_body.ts";
import { ERRORS, failure } from "./respond.ts";

/** Reads the raw body, refusing more than `limit` bytes without buffering past it (413). */
export async function readBody(arrival: Arrival, limit: number): Promise<Step<Uint8Array>> {
  try {
    return await readBodyLimited(arrival.request, limit);
  } catch (error) {
    if (error instanceof BodyTooLarge) return Ending.stop("rejected", error.message, failure(413, ERRORS.tooLarge, arrival.requestId));
    throw error;
  }
}
