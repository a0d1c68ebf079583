/**
 * A sample delivery for a plugin, used by the shared failure-mode suite and by
 * `inlet sign --app`. Each built-in plugin ships one as `plugins/<id>/fixture.ts`.
 */
export interface PluginFixture {
  /** What the user pastes as the trigger's `appSecret` (a public key for asymmetric recipes). */
  appSecret: string;
  /** The key `sign()` uses when it differs from `appSecret` (the private key of an asymmetric recipe). */
  signingKey?: string;
  /** A realistic body the provider sends. */
  body: string;
  /** Content type of `body`; default `application/json`. */
  contentType?: string;
  /** Headers the provider sends besides the signature (delivery id, event type…). */
  headers?: Record<string, string>;
  /** Path and query after the trigger URL, when the provider signs a URL with a query. */
  query?: string;
  /** The trigger's `appSettings` for this delivery (e.g. the topic it accepts); defaults fill the rest. */
  appSettings?: Record<string, string | string[] | boolean>;
  /** What `deliveryId()` must return for this delivery (`null`: the provider sends none). */
  deliveryId: string | null;
  /** What `event()` must return for this delivery. */
  event: string | null;
  /**
   * `false` when the provider's credential does not cover the body, so a changed body still
   * verifies: Mailgun signs only `timestamp + token`, GitLab and Postmark send a token or Basic
   * auth, Mailchimp sends nothing. The failure-mode suite then skips its tampered-body check.
   * Default `true`.
   */
  signsBody?: boolean;
  /**
   * `true` when the provider sends no credential at all and `verify()` accepts every request
   * (Mailchimp: the unguessable trigger URL is the credential). The suite then skips its
   * missing/malformed-credential and wrong-secret checks.
   */
  unsigned?: boolean;
  /**
   * `true` when the provider signs with keys it publishes, which the plugin fetches (Google's
   * JWKS for Pub/Sub, the certificate at an SNS message's `SigningCertURL`), so no secret of the
   * trigger's takes part: `signingKey` is a test key whose public half a stand-in serves (a local
   * host, or from memory at the provider's own URL), and the suite skips its wrong-secret check.
   * Such a fixture's module also exports `providerFetch`, the `ProviderFetch` that reaches the
   * stand-in.
   */
  providerKeys?: boolean;
  /**
   * Why a delivery with no delivery id (`deliveryId: null`) is not deduplicated by content
   * either (no `contentDedupWindowSeconds`), e.g. "the provider never retries". Without a
   * delivery id, the suite requires one of the two.
   */
  noDedupReason?: string;
}
