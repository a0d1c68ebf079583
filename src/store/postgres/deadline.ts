import { StoreUnavailable } from "../errors.ts";

/**
 * Rejects with StoreUnavailable when `work` has not settled within `ms`. The work may still
 * complete later: a commit answered 503 can land, and the sender's retry is then deduplicated
 * (or, without dedup, runs again: at-least-once, never lost).
 */
export function withinDeadline<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailable(`PostgreSQL did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
