/** Retry timing for http workflows: exponential backoff with full jitter, and `Retry-After`. */

export interface BackoffPolicy {
  /** Ceiling of the first retry's delay; doubles per attempt. */
  baseMs: number;
  /** Largest ceiling of a jittered delay. */
  maxMs: number;
  /** Largest wait a target's `Retry-After` can ask for. */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: Readonly<BackoffPolicy> = Object.freeze({ baseMs: 500, maxMs: 30_000, maxRetryAfterMs: 60_000 });

/**
 * Full jitter (a uniform wait between 0 and the exponential ceiling): retries of many runs that
 * failed together spread out instead of hitting the target again in step.
 *
 * @example
 * ```ts
 * jitteredDelay(3, DEFAULT_BACKOFF, () => 0.5); // 1000: half of 500 * 2^2
 * ```
 */
export function jitteredDelay(failedAttempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, failedAttempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * A `Retry-After` value in milliseconds from `now`: delay-seconds or an HTTP date, capped at
 * `maxMs`; null when absent or unreadable (the jittered delay applies).
 */
export function retryAfterMs(value: string | null, now: number, maxMs: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    // An HTTP date names its day and month; Date.parse alone would read "-1" as a year.
    if (!/[a-z]{3}/i.test(text)) return null;
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = at - now;
  }
  return Math.min(Math.max(0, ms), maxMs);
}

/** Network errors, 408, 429 and 5xx are worth another attempt; other answers are final. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Sleeps `ms`, waking early (rejecting) when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
