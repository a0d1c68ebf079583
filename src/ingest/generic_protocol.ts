import type { AuthResult } from "../auth/auth_result.ts";
import { authenticate, credentialHeaders } from "../auth/generic.ts";
import { JwtVerifier } from "../auth/jwt.ts";
import type { Arrival } from "./arrival.ts";
import { dedupKeyHash } from "../dedup/dedup_key.ts";
import { candidateSecrets } from "../records/candidate_secrets.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import { firstPassing } from "./first_passing.ts";
import type { PreparedChecks } from "../checks/prepared_checks.ts";
import type { SenderProtocol } from "./sender_protocol.ts";

/**
 * A generic Webhook trigger: its Authentication Type (bearer, header, HMAC…) and its dedup
 * strategy; the expression strategy's query runs through the trigger's compiled checks.
 */
export function genericProtocol(trigger: TriggerRecord, checks: PreparedChecks): SenderProtocol {
  const { auth, dedup } = trigger;
  // JWTs verify asynchronously (keys may come from a JWKS URL, cached per trigger version).
  const jwt = auth.type === "jwt" ? new JwtVerifier(auth.jwt!) : null;
  const check = (secret: string | null, arrival: Arrival, rawBody: Uint8Array): AuthResult | Promise<AuthResult> =>
    jwt ? jwt.verify(arrival.headers.get("authorization"), secret, arrival.now) : authenticate(auth, secret, arrival.headers, rawBody);
  return {
    methods: trigger.methods,
    checkOnlyMethods: [],
    verifiedCheckOnlyMethods: [],
    credentialHeaders: new Set(credentialHeaders(auth)),
    credentialQuery: new Set(),
    // The current secret, then the previous one while a rotation's overlap lasts.
    authenticate: async (arrival, rawBody) =>
      firstPassing(
        candidateSecrets(trigger.secret, trigger.previous?.secret, trigger.previous?.expiresAt, arrival.now),
        (secret) => check(secret, arrival, rawBody),
        () => check(trigger.secret, arrival, rawBody),
      ),
    async dedupClaim(verified, body) {
      if (dedup.strategy === "disabled") return null;
      // A strategy that reads the body waits for it: a large XML body is parsed on its thread.
      const parsed = async () => (await body.ready(), body.valueOrUndefined());
      const hash = await dedupKeyHash(dedup, { headers: verified.headers, rawBody: body.bytes(), body: parsed }, checks.select);
      return hash ? { keyHash: hash, windowSeconds: dedup.windowSeconds ?? 3600 } : null;
    },
    app: () => null,
  };
}
