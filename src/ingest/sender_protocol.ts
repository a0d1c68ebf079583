import type { AuthResult } from "../auth/auth_result.ts";
import type { DedupClaim } from "../records/ingest.ts";
import type { Arrival } from "./arrival.ts";
import type { ParsedBody } from "./parse.ts";
import type { Verified } from "./authenticate.ts";

/** `$trigger.app`: which provider sent the request, its event type and delivery id. */
export interface AppInfo {
  id: string;
  event: string | null;
  deliveryId: string | null;
}

/** A URL-verification answer; `adoptSecret` is a secret the provider hands over on first contact. */
export interface HandshakeAnswer {
  response: Response;
  adoptSecret?: string;
  /** What the owner reads in Activity. */
  detail: string;
}

/**
 * The protocol a trigger's senders speak: which methods reach it, how their credential is checked,
 * which requests are handshakes, what deduplicates them and what `$trigger.app` says. A generic
 * trigger's comes from its Authentication Type and dedup strategy, an app trigger's from its
 * plugin (whose signing recipe is one part of it). The pipeline has one flow and asks this
 * interface at each step; one is built per trigger version and reused for every request.
 */
export interface SenderProtocol {
  /** Methods that reach the trigger; others get 405 with this `Allow` list. */
  readonly methods: readonly string[];
  /** Methods that only a URL check may use (an app's unsigned GET/HEAD); anything else with them is 405. */
  readonly checkOnlyMethods: readonly string[];
  /**
   * Methods that only a URL check may use, and only once verified (an app plugin's
   * `handshakeMethods`: CloudEvents' OPTIONS); such a request that is no handshake is 405.
   */
  readonly verifiedCheckOnlyMethods: readonly string[];
  /** Header names (lower-case) kept out of `$trigger`: they carry credentials. */
  readonly credentialHeaders: ReadonlySet<string>;
  /** Query parameter names (lower-case) kept out of `$trigger.query`: they carry credentials. */
  readonly credentialQuery: ReadonlySet<string>;
  /** Checks the caller's credential over the raw bytes, before anything is parsed or stored. */
  authenticate(arrival: Arrival, rawBody: Uint8Array): Promise<AuthResult>;
  /**
   * A URL-verification answer for this request, or null when it is not one. Called for
   * check-only methods before authentication (providers do not sign those), and otherwise only
   * on a verified request. A throwing handshake is an authentication failure.
   */
  handshake?(arrival: Arrival, rawBody: Uint8Array): Promise<HandshakeAnswer | null>;
  /**
   * The dedup key to claim for a verified request, or null (no dedup for it). A protocol that reads
   * the parsed body awaits `body.ready()` first; one that does not leaves a duplicate unparsed.
   */
  dedupClaim(verified: Verified, body: ParsedBody): Promise<DedupClaim | null>;
  /**
   * An app's `$trigger.body`: the parsed body with what its provider encodes inside decoded
   * (Pub/Sub's `message.data`); absent where nothing is. `redacting`: the trigger redacts PII.
   */
  decodeBody?(verified: Verified, body: unknown, redacting: boolean): unknown;
  /** `$trigger.app` for a verified request with its parsed body; null for generic triggers. */
  app(verified: Verified, body: unknown): AppInfo | null;
}
