/**
 * A stand-in for a provider's key host, from memory: what a provider publishes (SNS's signing
 * certificate) served at its real URL to the plugin's fetches, under the plugin's own fetch rule,
 * so no test reaches the provider. A fixture with `providerKeys: true` exports one as its
 * `providerFetch` (plugins/aws-sns/fixture.ts).
 */
import { KeyFetchFailed, KeyFetchGate, type BodyCheck } from "../../src/auth/key_fetch_gate.ts";
import { ProviderFetch } from "../../src/plugins/index.ts";

/** Answers each URL of `documents` with its text, any other with a 404 (a failed fetch). */
class PublishedDocuments extends KeyFetchGate {
  constructor(
    private readonly documents: Readonly<Record<string, string>>,
    private readonly fetched: string[],
  ) {
    super();
  }

  override fetch(url: string, _init: RequestInit, check: BodyCheck): Promise<string> {
    this.fetched.push(url);
    const text = Object.hasOwn(this.documents, url) ? this.documents[url] : undefined;
    if (text === undefined) return Promise.reject(new KeyFetchFailed("HTTP 404, not 200"));
    const problem = check(text);
    return problem === null ? Promise.resolve(text) : Promise.reject(new KeyFetchFailed(problem));
  }
}

/**
 * A fetcher that serves `documents` (and refuses what the plugin's rule refuses); each URL it is
 * asked for (past the rule and the cache) is pushed to `fetched`.
 *
 * @example
 * ```ts
 * export const providerFetch = providerFetchServing({ [CERTIFICATE_URL]: TEST_CERTIFICATE });
 * ```
 */
export function providerFetchServing(documents: Readonly<Record<string, string>>, fetched: string[] = []): ProviderFetch {
  return new ProviderFetch([], { gate: new PublishedDocuments(documents, fetched) });
}
