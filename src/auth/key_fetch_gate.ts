/** How long a URL whose key fetch failed is left alone; doubled while it keeps failing. */
export const KEY_FETCH_RETRY_MS = 30_000;
/** The longest a failing URL is left alone. */
export const KEY_FETCH_MAX_RETRY_MS = 5 * 60_000;

/** A key fetch failed: the host did not answer, or not with 200 and what `check` accepts. */
export class KeyFetchFailed extends Error {
  override name = "KeyFetchFailed";
  readonly code = "key_fetch_failed";
}

/** A key fetch was not made: the URL failed lately and is left alone until `until`. */
export class KeyFetchCoolingDown extends Error {
  override name = "KeyFetchCoolingDown";
  readonly code = "key_fetch_cooling_down";
  constructor(
    message: string,
    readonly until: number,
    /** Why the last fetch failed. */
    readonly reason: string = "",
  ) {
    super(message);
  }
}

/** Why a fetched body is not usable (null: it is). */
export type BodyCheck = (text: string) => string | null;

interface Failing {
  failures: number;
  until: number;
  reason: string;
}

/**
 * Fetches of signing keys (a JWKS) from hosts trigger owners name, so that no flood of requests
 * makes inlet hammer a host that fails (README "Admin authentication and the server's own
 * secrets", its "Key fetches"): per URL, one fetch at a time, its result shared by every request
 * waiting on it; after a failure, no fetch for 30 s, doubling up to 5 min while the URL keeps
 * failing; a success forgets the failures. Only failing URLs and fetches in flight are kept.
 */
export class KeyFetchGate {
  private readonly failing = new Map<string, Failing>();
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** The body of `url`'s 200 answer, which `check` accepts; else KeyFetchFailed, or KeyFetchCoolingDown without a fetch. */
  fetch(url: string, init: RequestInit, check: BodyCheck): Promise<string> {
    const shared = this.inFlight.get(url);
    if (shared) return shared;
    const failing = this.failing.get(url);
    if (failing && this.now() < failing.until) {
      const when = new Date(failing.until).toISOString();
      return Promise.reject(
        new KeyFetchCoolingDown(`the last fetch of ${url} failed (${failing.reason}); not fetched again before ${when}`, failing.until, failing.reason),
      );
    }
    const fetching = fetchBody(url, init, check).then(
      (text) => {
        this.failing.delete(url);
        return text;
      },
      (error: KeyFetchFailed) => {
        const failures = (failing?.failures ?? 0) + 1;
        const wait = Math.min(KEY_FETCH_RETRY_MS * 2 ** (failures - 1), KEY_FETCH_MAX_RETRY_MS);
        this.failing.set(url, { failures, until: this.now() + wait, reason: error.message });
        throw error;
      },
    );
    this.inFlight.set(url, fetching);
    const done = () => void this.inFlight.delete(url);
    fetching.then(done, done);
    return fetching;
  }

  /** How long `url` is still left alone after failing (milliseconds; 0 when it may be fetched): what a caller is told to wait. */
  coolingDownFor(url: string): number {
    const failing = this.failing.get(url);
    return failing ? Math.max(0, failing.until - this.now()) : 0;
  }
}

async function fetchBody(url: string, init: RequestInit, check: BodyCheck): Promise<string> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, init);
    text = await response.text();
  } catch (error) {
    const e = error as Error;
    throw new KeyFetchFailed(e?.name === "TimeoutError" ? "timed out" : e?.message || String(error));
  }
  if (response.status !== 200) throw new KeyFetchFailed(`HTTP ${response.status}, not 200`);
  const problem = check(text);
  if (problem !== null) throw new KeyFetchFailed(problem);
  return text;
}

/** The gate of every key fetch of this process: one count per URL, whichever trigger names it. */
export const KEY_FETCHES = new KeyFetchGate();
