/**
 * A plugin asked to fetch from a URL its rule does not allow (`ctx.fetchText`, `ctx.confirmUrl`,
 * `ctx.verifyJwt`'s JWKS): nothing was fetched. Thrown inside `verify`, it is the uniform 401.
 */
export class ProviderFetchRefused extends Error {
  override name = "ProviderFetchRefused";
  readonly code = "provider_fetch_refused";
}

/**
 * A provider's key, certificate or confirmation URL could not be fetched (no answer within 5 s,
 * not 200), now or lately: the host answers 503 with `Retry-After` (the provider retries) and an
 * `error` Activity row naming `host`, never a 200 or a 401. Plugins let it propagate.
 */
export class ProviderUnavailable extends Error {
  override name = "ProviderUnavailable";
  readonly code = "provider_unavailable";
  constructor(
    message: string,
    /** The host that failed, as the URL names it (`host:port` when a port is given). */
    readonly host: string,
    /** When the URL is fetched again: the provider is told to retry after this. */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
