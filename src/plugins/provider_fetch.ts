import { KEY_FETCHES, KeyFetchCoolingDown, KeyFetchFailed, type BodyCheck, type KeyFetchGate } from "../auth/key_fetch_gate.ts";
import { fetchRuleProblem, shownUrl } from "./fetch_rule.ts";
import { ProviderFetchRefused, ProviderUnavailable } from "./provider_errors.ts";
import type { FetchRule } from "./types.ts";

/** A provider that does not answer within this is a failed fetch. */
export const PROVIDER_FETCH_TIMEOUT_MS = 5000;
/** How long a fetched text is reused when the rule does not say. */
export const DEFAULT_CACHE_SECONDS = 3600;
/** URLs whose text is kept at once; past it the oldest go (a sender chooses URLs, e.g. SNS's SigningCertURL). */
const MAX_CACHED = 256;

const anyBody: BodyCheck = () => null;

export interface ProviderFetchOptions {
  /** Shared with `jwt` triggers' JWKS fetches: one failure count per URL in the process. */
  gate?: KeyFetchGate;
  now?: () => number;
  timeoutMs?: number;
  maxCached?: number;
}

/**
 * What plugins fetch from their providers (`ctx.fetchText`, `ctx.confirmUrl`, `ctx.verifyJwt`'s
 * JWKS): only URLs their rule allows — https on the provider's hosts, or a host:port of
 * `--provider-fetch-allow` (`allowed`) — each fetch through the key-fetch gate (a failing URL is
 * left alone 30 s, doubling up to 5 min), successful texts cached per URL. One per process.
 */
export class ProviderFetch {
  private readonly allowed: ReadonlySet<string>;
  private readonly gate: KeyFetchGate;
  private readonly now: () => number;
  private readonly timeoutMs: number;
  private readonly maxCached: number;
  private readonly cache = new Map<string, { text: string; until: number }>();
  private readonly memo = new Map<string, unknown>();

  constructor(allowed: readonly string[] = [], options: ProviderFetchOptions = {}) {
    this.allowed = new Set(allowed);
    this.gate = options.gate ?? KEY_FETCHES;
    this.now = options.now ?? (() => Date.now());
    this.timeoutMs = options.timeoutMs ?? PROVIDER_FETCH_TIMEOUT_MS;
    this.maxCached = options.maxCached ?? MAX_CACHED;
  }

  /** Why `url` may not be fetched under `rule`, or null. */
  problem(url: string, rule: FetchRule): string | null {
    return fetchRuleProblem(url, rule, this.allowed);
  }

  /** The text at `url` (cached per `rule.cacheSeconds`); see `PluginContext.fetchText`. */
  async fetchText(url: string, rule: FetchRule): Promise<string> {
    const href = this.checked(url, rule);
    const cached = this.cache.get(href);
    if (cached && cached.until > this.now()) return cached.text;
    this.cache.delete(href);
    const text = await this.fetchAllowed(href, rule.purpose);
    const seconds = rule.cacheSeconds ?? DEFAULT_CACHE_SECONDS;
    if (seconds > 0) {
      while (this.cache.size >= this.maxCached) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(href, { text, until: this.now() + seconds * 1000 });
    }
    return text;
  }

  /** GETs `url` under `rule`, never cached; see `PluginContext.confirmUrl`. */
  async confirmUrl(url: string, rule: FetchRule): Promise<void> {
    await this.fetchAllowed(this.checked(url, rule), rule.purpose);
  }

  /**
   * Fetches a URL already checked against its rule, through the gate, with `check` judging the
   * body: a failure (or a URL left alone after one) is {@link ProviderUnavailable}.
   */
  async fetchAllowed(href: string, purpose: string, check: BodyCheck = anyBody): Promise<string> {
    try {
      // Redirects are not followed: the place they lead to was never checked against the rule.
      return await this.gate.fetch(href, { signal: AbortSignal.timeout(this.timeoutMs), redirect: "manual" }, check);
    } catch (error) {
      const url = new URL(href);
      const wait = Math.max(1, Math.ceil(this.gate.coolingDownFor(href) / 1000));
      const what = `${purpose || "fetch"} from ${shownUrl(url)}`;
      if (error instanceof KeyFetchCoolingDown) {
        throw new ProviderUnavailable(
          `${what}: the last fetch failed (${error.reason}); not fetched again before ${new Date(error.until).toISOString()}`,
          url.host,
          wait,
        );
      }
      if (error instanceof KeyFetchFailed) throw new ProviderUnavailable(`${what} failed: ${error.message}`, url.host, wait);
      throw error;
    }
  }

  /**
   * One object per URL, made once (a JWKS's key set with its own cache), for at most as many URLs
   * as texts are cached; past that the oldest is made again when next asked for.
   */
  perUrl<T>(href: string, make: () => T): T {
    if (this.memo.has(href)) return this.memo.get(href) as T;
    while (this.memo.size >= this.maxCached) this.memo.delete(this.memo.keys().next().value!);
    const made = make();
    this.memo.set(href, made);
    return made;
  }

  /** `url` as fetched (normalized), or a thrown {@link ProviderFetchRefused}. */
  private checked(url: string, rule: FetchRule): string {
    const problem = this.problem(url, rule);
    if (problem) throw new ProviderFetchRefused(problem);
    return new URL(url).href;
  }
}

/** The fetcher of a context built without one (tests, `inlet sign`): no extra hosts. */
export const PROVIDER_FETCH = new ProviderFetch();
