import { VERSION } from "../version.ts";
import { DEFAULT_BACKOFF, isRetryableStatus, jitteredDelay, retryAfterMs, sleep, type BackoffPolicy } from "./backoff.ts";
import { ANSWER_LIMIT_BYTES, boundBytes, OUTPUT_LIMIT_BYTES, readBounded } from "./bounded_output.ts";
import { RunAborted, type Runner, type RunOutcome } from "./types.ts";

export const DEFAULT_HTTP_TIMEOUT_MS = 10_000;
export const DEFAULT_HTTP_MAX_ATTEMPTS = 5;

/** One delivery attempt, as recorded in the run's result. */
export interface HttpAttempt {
  at: string;
  durationMs: number;
  status?: number;
  error?: string;
  /** The wait before the next attempt. */
  retryInMs?: number;
}

export interface HttpRunnerOptions {
  backoff?: BackoffPolicy;
  random?: () => number;
}

/**
 * POSTs the run's `$trigger` as JSON. Network errors, timeouts, 408, 429 and 5xx are retried with
 * exponential backoff and full jitter (a `Retry-After` is honoured, capped); other answers are
 * final. The target sees the run id as `X-Inlet-Run-Id` and `Idempotency-Key`: every attempt
 * of one run, including one repeated after a crash, carries the same key.
 */
/**
 * Gives the run back to the queue because its destination's breaker is not closed (README
 * "Limits, the breaker and pause"): with the attempts it made, once they are stored, it goes on
 * from them when the breaker lets a run try again. If they could not be stored, it goes on now
 * instead (handing it back would let it exceed its `maxAttempts`).
 */
async function handBack(recorded: Promise<boolean>, signal: AbortSignal): Promise<void> {
  if (await untilAborted(recorded, signal)) throw new RunAborted("the destination's breaker opened");
}

/** `promise`, or RunAborted as soon as the server stops (a store that does not answer must not hold the stop). */
function untilAborted<T>(promise: Promise<T> | undefined, signal: AbortSignal): Promise<T | undefined> {
  if (promise === undefined) return Promise.resolve(undefined);
  if (signal.aborted) return Promise.reject(new RunAborted());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new RunAborted());
    signal.addEventListener("abort", abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}

export function httpRunner(options: HttpRunnerOptions = {}): Runner<"http"> {
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const random = options.random ?? Math.random;
  return async (workflow, run, context): Promise<RunOutcome> => {
    const timeoutMs = workflow.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
    const maxAttempts = workflow.retry?.maxAttempts ?? DEFAULT_HTTP_MAX_ATTEMPTS;
    const body = JSON.stringify(run.trigger);
    const headers = {
      "Content-Type": "application/json",
      "User-Agent": `inlet/${VERSION}`,
      ...(workflow.headers ?? {}),
      "X-Inlet-Run-Id": run.id,
      "Idempotency-Key": run.id,
    };
    // A run resumed after a restart (or a stop between retries) goes on from the attempts it
    // recorded: one retry budget per run, and its result lists every delivery. At least one more.
    const earlier = (run.result as { attempts?: unknown } | null)?.attempts;
    const attempts: HttpAttempt[] = Array.isArray(earlier) ? [...(earlier as HttpAttempt[])] : [];
    const resultOf = (extra: Record<string, unknown>) => ({ url: workflow.url, ...extra, attempts });
    for (let n = run.attempts + 1; ; n++) {
      const started = performance.now();
      const attempt: HttpAttempt = { at: new Date().toISOString(), durationMs: 0 };
      attempts.push(attempt);
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([context.signal, timeout]);
      let retryIn: number;
      /** Whether the destination's breaker lets the run go on after this failed attempt (README "Limits, the breaker and pause"). */
      let breakerLetsOn: Promise<boolean> | undefined;
      try {
        const response = await fetch(workflow.url, { method: "POST", headers, body, signal, redirect: "manual" });
        const answer = await readBounded(response.body, ANSWER_LIMIT_BYTES, signal);
        if (context.signal.aborted) throw new RunAborted();
        if (timeout.aborted) throw timeout.reason;
        attempt.status = response.status;
        attempt.durationMs = Math.round(performance.now() - started);
        // The breaker counts what says the target is not well (408, 429, 5xx), not a refusal of this request.
        const goesOn = context.attemptEnded?.(!isRetryableStatus(response.status));
        const contentType = response.headers.get("content-type");
        const stored = boundBytes(answer.raw, OUTPUT_LIMIT_BYTES, answer.bytes);
        const final = (): RunOutcome => ({
          status: response.ok ? ("succeeded" as const) : ("failed" as const),
          attempts: n,
          error: response.ok ? null : `the target answered ${response.status}${n > 1 ? ` (attempt ${n} of ${maxAttempts})` : ""}`,
          result: resultOf({ status: response.status, contentType, body: stored.text, bodyBytes: answer.bytes, bodyTruncated: stored.truncated }),
          answer: { status: response.status, headers: contentType ? { "Content-Type": contentType } : ({} as Record<string, string>), body: answer.raw },
        });
        if (response.ok || !isRetryableStatus(response.status) || n >= maxAttempts) return final();
        retryIn = retryAfterMs(response.headers.get("retry-after"), Date.now(), backoff.maxRetryAfterMs) ?? jitteredDelay(n, backoff, random);
        breakerLetsOn = goesOn;
      } catch (error) {
        if (error instanceof RunAborted || context.signal.aborted) throw new RunAborted();
        breakerLetsOn = context.attemptEnded?.(false);
        attempt.durationMs = Math.round(performance.now() - started);
        attempt.error = timeout.aborted ? `timed out after ${timeoutMs} ms` : `network error: ${(error as Error)?.message ?? String(error)}`;
        if (n >= maxAttempts) {
          return {
            status: "failed",
            attempts: n,
            error: `the target was unreachable after ${n} attempt${n === 1 ? "" : "s"}: ${attempt.error}`,
            result: resultOf({ status: null }),
            answer: null,
            failureStatus: 502,
          };
        }
        retryIn = jitteredDelay(n, backoff, random);
      }
      attempt.retryInMs = retryIn;
      const recorded = context.recordAttempt(n, { url: workflow.url, status: attempt.status ?? null, attempts: attempts.map((a) => ({ ...a })) });
      // The breaker opened with this attempt: no more attempts while it is open.
      if ((await untilAborted(breakerLetsOn, context.signal)) === false) await handBack(recorded, context.signal);
      try {
        await sleep(retryIn, context.signal);
      } catch {
        throw new RunAborted();
      }
      // Or another run's attempt opened it meanwhile (or it is half-open, trying another run).
      if (context.mayAttempt && !(await untilAborted(context.mayAttempt(), context.signal))) await handBack(recorded, context.signal);
    }
  };
}
