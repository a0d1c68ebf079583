import { conditional, h, options } from "../dom.ts";
import { field, wholeNumberProblem, type Field } from "../field.ts";
import type { Trigger } from "../types.ts";

type SavedJwt = NonNullable<Trigger["auth"]["jwt"]>;

/** The jwt Authentication Type's settings: algorithm, key (PEM or JWKS URL), issuer, audience, clock tolerance. */
export interface JwtFields {
  /** In the order they are shown. */
  fields: Field[];
  /** Where each field goes in the form while it applies. */
  anchors: Comment[];
  /** Shows the fields that apply, while `on` (the type is jwt): the key fields only for an asymmetric algorithm. */
  place(on: boolean): void;
  onChange(listener: () => void): void;
  /** The body's `auth.jwt`. */
  value(): Record<string, unknown>;
  /** Checks the clock tolerance (while `on`); returns its control when it has a problem, or null. */
  validate(on: boolean): HTMLElement | null;
  /** The field of a server detail under `/auth/jwt`, or null. */
  fieldFor(path: string): Field | null;
}

const ALGORITHMS = [
  ["HS256", "HS256"],
  ["RS256", "RS256"],
  ["ES256", "ES256"],
  ["EdDSA", "EdDSA"],
] as const;

const optional = (value: string) => (value.trim() === "" ? undefined : value.trim());

export function jwtFields(saved: SavedJwt | undefined): JwtFields {
  const algorithm = field("JWT algorithm", h("select", { name: "jwtAlgorithm" }, options(ALGORITHMS, saved?.algorithms[0] ?? "HS256")), "");
  // Several algorithms can be set through the API only: kept while the first of them stays chosen.
  const savedAlgorithms: string[] = saved?.algorithms ?? [];
  const algorithms = () => (savedAlgorithms[0] === algorithm.control.value ? savedAlgorithms : [algorithm.control.value]);
  const publicKey = field(
    "Public key (PEM)",
    h("textarea", { name: "jwtPublicKey", rows: 4, class: "mono", spellcheck: "false", placeholder: "-----BEGIN PUBLIC KEY-----" }, saved?.publicKey ?? ""),
    "The signer's public key, or leave it empty and give a JWKS URL.",
  );
  const jwks = field(
    "JWKS URL",
    h("input", { type: "url", name: "jwksUrl", value: saved?.jwksUrl ?? "", autocomplete: "off", class: "mono" }),
    "Fetched and cached; an unknown kid refetches it at most every 30 s.",
  );
  const issuer = field(
    "Issuer",
    h("input", { type: "text", name: "jwtIssuer", value: saved?.issuer ?? "", autocomplete: "off" }),
    "Optional: the iss claim tokens must carry.",
  );
  const audience = field(
    "Audience",
    h("input", { type: "text", name: "jwtAudience", value: saved?.audience ?? "", autocomplete: "off" }),
    "Optional: the aud claim tokens must carry.",
  );
  const tolerance = field(
    "Clock tolerance (seconds)",
    h("input", {
      type: "text",
      inputmode: "numeric",
      name: "jwtClockTolerance",
      value: saved?.clockToleranceSeconds === undefined ? "" : String(saved.clockToleranceSeconds),
      placeholder: "60",
      class: "short",
    }),
    "How far exp, nbf and iat may be off: 0 to 3600; empty for the default (60).",
  );
  const toleranceText = () => tolerance.control.value.trim();
  const fields = [algorithm, publicKey, jwks, issuer, audience, tolerance];
  const slots = fields.map((f) => ({ f, slot: conditional(f.wrap) }));
  const asymmetric = () => algorithm.control.value !== "HS256";

  return {
    fields,
    anchors: slots.map((s) => s.slot.anchor),
    place(on) {
      algorithm.hint.textContent = `${algorithms().length > 1 ? `Accepted: ${algorithms().join(", ")}` : "Only this algorithm is accepted"} (alg: none and algorithm confusion are refused).`;
      for (const { f, slot } of slots) slot.set(on && (f === algorithm || f === issuer || f === audience || f === tolerance || asymmetric()));
    },
    onChange: (listener) => algorithm.control.addEventListener("change", listener),
    value: () => ({
      algorithms: algorithms(),
      ...(asymmetric() && optional(publicKey.control.value) ? { publicKey: publicKey.control.value.trim() } : {}),
      ...(asymmetric() && optional(jwks.control.value) ? { jwksUrl: jwks.control.value.trim() } : {}),
      ...(optional(issuer.control.value) ? { issuer: issuer.control.value.trim() } : {}),
      ...(optional(audience.control.value) ? { audience: audience.control.value.trim() } : {}),
      ...(toleranceText() === "" ? {} : { clockToleranceSeconds: Number(toleranceText()) }),
    }),
    validate(on) {
      const problem = on ? wholeNumberProblem(toleranceText(), 0, 3600, { unit: "seconds" }) : null;
      tolerance.setError(problem);
      return problem ? tolerance.control : null;
    },
    fieldFor(path) {
      if (path.startsWith("/auth/jwt/publicKey")) return publicKey;
      if (path.startsWith("/auth/jwt/jwksUrl")) return jwks;
      if (path.startsWith("/auth/jwt/issuer")) return issuer;
      if (path.startsWith("/auth/jwt/audience")) return audience;
      if (path.startsWith("/auth/jwt/clockToleranceSeconds")) return tolerance;
      if (path.startsWith("/auth/jwt")) return algorithm;
      return null;
    },
  };
}
