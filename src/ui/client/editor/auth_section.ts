import { conditional, h, options } from "../dom.ts";
import { field, wholeNumberProblem, type Field } from "../field.ts";
import type { AuthType, Trigger } from "../types.ts";
import { headerNameProblem } from "./header_name.ts";
import type { Section } from "./section.ts";

const AUTH_TYPES: ReadonlyArray<readonly [AuthType, string]> = [
  ["none", "none"],
  ["bearer", "bearer"],
  ["header", "header"],
  ["hmac-sha256", "hmac-sha256"],
  ["hmac-sha512", "hmac-sha512"],
  ["basic", "basic"],
  ["jwt", "jwt"],
];

const AUTH_HINTS: Record<AuthType, string> = {
  none: "No credential: the URL alone is the credential. Use it only for prototyping and trusted networks.",
  bearer: "Callers send Authorization: Bearer <secret>. inlet generates the secret.",
  header: "Callers send the secret in the header named below. inlet generates the secret.",
  "hmac-sha256": "Callers sign the raw body with HMAC-SHA256 and send the digest in the signature header. No timestamp is signed: add Payload Hash deduplication to stop replays.",
  "hmac-sha512": "Callers sign the raw body with HMAC-SHA512 and send the digest in the signature header. No timestamp is signed: add Payload Hash deduplication to stop replays.",
  basic: "Callers send Authorization: Basic base64(username:password). inlet generates the password.",
  jwt: "Callers send Authorization: Bearer <JWT>, with exp. HS256 uses a key inlet generates; RS256, ES256 and EdDSA the signer's public key or JWKS URL.",
};

const METHODS = [
  ["POST", "POST"],
  ["GET", "GET"],
  ["GET,POST", "GET and POST"],
] as const;

const isHmac = (type: string) => type === "hmac-sha256" || type === "hmac-sha512";

export interface AuthSection extends Section {
  /** The first field of the form. */
  typeField: Field<HTMLSelectElement>;
  /** Methods and the mode's own fields, which follow Name. */
  rest: HTMLElement;
  onChange(listener: () => void): void;
}

/** Authentication Type, Methods, Header Name, HMAC encoding of a generic Webhook trigger. */
export function authSection(trigger: Trigger | null): AuthSection {
  const saved = trigger?.auth;
  const typeField = field("Authentication Type", h("select", { name: "authType" }, options(AUTH_TYPES, saved?.type ?? "none")), AUTH_HINTS[saved?.type ?? "none"]);
  const methodsValue = trigger ? trigger.methods.slice().sort().join(",") : "POST";
  const methodsField = field("Methods", h("select", { name: "methods" }, options(METHODS, methodsValue)), "");
  const headerField = field(
    "Header Name",
    h("input", { type: "text", name: "headerName", value: saved?.headerName ?? "X-Webhook-Secret", autocomplete: "off", spellcheck: "false", maxlength: 128 }),
    "The request header that carries the secret. Letters, digits and hyphens; matched case-insensitively.",
  );
  const signatureField = field(
    "Signature header",
    h("input", { type: "text", name: "signatureHeader", value: saved?.signatureHeader ?? "X-Signature", autocomplete: "off", spellcheck: "false", maxlength: 128 }),
    "Carries sha256=<digest> (or sha512=…), or the bare digest.",
  );
  const encodingField = field(
    "HMAC encoding",
    h("select", { name: "encoding" }, options([["hex", "hex"], ["base64", "base64"]], saved?.encoding ?? "hex")),
    "How the digest is written in the signature header.",
  );
  const savedJwt = saved?.jwt;
  const usernameField = field("Username", h("input", { type: "text", name: "username", value: saved?.username ?? "inlet", autocomplete: "off", spellcheck: "false", maxlength: 200 }), "The Basic username callers send; no colon.");
  const algorithmField = field(
    "JWT algorithm",
    h("select", { name: "jwtAlgorithm" }, options([["HS256", "HS256"], ["RS256", "RS256"], ["ES256", "ES256"], ["EdDSA", "EdDSA"]], savedJwt?.algorithms[0] ?? "HS256")),
    "",
  );
  // Several algorithms can be set through the API only: kept while the first of them stays chosen.
  const savedAlgorithms: string[] = savedJwt?.algorithms ?? [];
  const algorithms = () => (savedAlgorithms[0] === algorithmField.control.value ? savedAlgorithms : [algorithmField.control.value]);
  const publicKeyField = field("Public key (PEM)", h("textarea", { name: "jwtPublicKey", rows: 4, class: "mono", spellcheck: "false", placeholder: "-----BEGIN PUBLIC KEY-----" }, savedJwt?.publicKey ?? ""), "The signer's public key, or leave it empty and give a JWKS URL.");
  const jwksField = field("JWKS URL", h("input", { type: "url", name: "jwksUrl", value: savedJwt?.jwksUrl ?? "", autocomplete: "off", class: "mono" }), "Fetched and cached; an unknown kid refetches it at most every 30 s.");
  const issuerField = field("Issuer", h("input", { type: "text", name: "jwtIssuer", value: savedJwt?.issuer ?? "", autocomplete: "off" }), "Optional: the iss claim tokens must carry.");
  const audienceField = field("Audience", h("input", { type: "text", name: "jwtAudience", value: savedJwt?.audience ?? "", autocomplete: "off" }), "Optional: the aud claim tokens must carry.");
  const toleranceField = field(
    "Clock tolerance (seconds)",
    h("input", { type: "text", inputmode: "numeric", name: "jwtClockTolerance", value: savedJwt?.clockToleranceSeconds === undefined ? "" : String(savedJwt.clockToleranceSeconds), placeholder: "60", class: "short" }),
    "How far exp, nbf and iat may be off: 0 to 3600; empty for the default (60).",
  );
  const toleranceText = () => toleranceField.control.value.trim();
  const toleranceProblem = () => wholeNumberProblem(toleranceText(), 0, 3600, { unit: "seconds" });
  const listeners: Array<() => void> = [];
  const headerSlot = conditional(headerField.wrap);
  const signatureSlot = conditional(signatureField.wrap);
  const encodingSlot = conditional(encodingField.wrap);
  const usernameSlot = conditional(usernameField.wrap);
  const jwtSlots = [algorithmField, publicKeyField, jwksField, issuerField, audienceField, toleranceField].map((f) => ({ f, slot: conditional(f.wrap) }));
  const rest = h("div", { class: "stack" }, methodsField.wrap, headerSlot.anchor, signatureSlot.anchor, encodingSlot.anchor, usernameSlot.anchor, ...jwtSlots.map((j) => j.slot.anchor));
  const asymmetric = () => algorithmField.control.value !== "HS256";

  const type = () => typeField.control.value as AuthType;
  const getOnly = () => methodsField.control.value === "GET";

  function checkType(): string | null {
    return isHmac(type()) && getOnly() ? "HMAC types need a body to sign, and a GET-only trigger has none: choose bearer or header." : null;
  }

  function update() {
    typeField.hint.textContent = AUTH_HINTS[type()];
    algorithmField.hint.textContent = `${algorithms().length > 1 ? `Accepted: ${algorithms().join(", ")}` : "Only this algorithm is accepted"} (alg: none and algorithm confusion are refused).`;
    // The seed: HMAC is not selectable when the trigger accepts only GET. Disabled in the DOM.
    for (const option of typeField.control.options) option.disabled = getOnly() && isHmac(option.value);
    methodsField.hint.textContent = getOnly() ? "GET-only: HMAC types are unavailable, since a GET request has no body to sign." : "";
    methodsField.hint.hidden = !getOnly();
    typeField.setError(checkType());
    headerSlot.set(type() === "header");
    signatureSlot.set(isHmac(type()));
    encodingSlot.set(isHmac(type()));
    usernameSlot.set(type() === "basic");
    for (const { f, slot } of jwtSlots) slot.set(type() === "jwt" && (f === algorithmField || f === issuerField || f === audienceField || f === toleranceField || asymmetric()));
    for (const listener of listeners) listener();
  }

  typeField.control.addEventListener("change", update);
  algorithmField.control.addEventListener("change", update);
  methodsField.control.addEventListener("change", update);
  for (const f of [headerField, signatureField]) {
    f.control.addEventListener("input", () => f.setError(headerNameProblem(f.control.value.trim())));
  }
  update();

  return {
    el: typeField.wrap,
    typeField,
    rest,
    onChange: (listener) => listeners.push(listener),
    value() {
      const auth: Record<string, unknown> = { type: type() };
      if (type() === "header") auth.headerName = headerField.control.value.trim();
      if (isHmac(type())) {
        auth.signatureHeader = signatureField.control.value.trim();
        auth.encoding = encodingField.control.value;
      }
      if (type() === "basic") auth.username = usernameField.control.value.trim();
      if (type() === "jwt") {
        const optional = (value: string) => (value.trim() === "" ? undefined : value.trim());
        auth.jwt = {
          algorithms: algorithms(),
          ...(asymmetric() && optional(publicKeyField.control.value) ? { publicKey: publicKeyField.control.value.trim() } : {}),
          ...(asymmetric() && optional(jwksField.control.value) ? { jwksUrl: jwksField.control.value.trim() } : {}),
          ...(optional(issuerField.control.value) ? { issuer: issuerField.control.value.trim() } : {}),
          ...(optional(audienceField.control.value) ? { audience: audienceField.control.value.trim() } : {}),
          ...(toleranceText() === "" ? {} : { clockToleranceSeconds: Number(toleranceText()) }),
        };
      }
      return { methods: methodsField.control.value.split(","), auth };
    },
    validate() {
      let first: HTMLElement | null = null;
      const typeProblem = checkType();
      typeField.setError(typeProblem);
      if (typeProblem) first = typeField.control;
      for (const [f, applies] of [[headerField, type() === "header"], [signatureField, isHmac(type())]] as const) {
        const problem = applies ? headerNameProblem(f.control.value.trim()) : null;
        f.setError(problem);
        if (problem) first ??= f.control;
      }
      const tolerance = type() === "jwt" ? toleranceProblem() : null;
      toleranceField.setError(tolerance);
      if (tolerance) first ??= toleranceField.control;
      return first;
    },
    fields: [typeField, methodsField, headerField, signatureField, encodingField, usernameField, algorithmField, publicKeyField, jwksField, issuerField, audienceField, toleranceField],
    fieldFor(path) {
      if (path === "/methods") return methodsField;
      if (path.startsWith("/auth/headerName")) return headerField;
      if (path.startsWith("/auth/signatureHeader")) return signatureField;
      if (path.startsWith("/auth/encoding")) return encodingField;
      if (path.startsWith("/auth/username")) return usernameField;
      if (path.startsWith("/auth/jwt/publicKey")) return publicKeyField;
      if (path.startsWith("/auth/jwt/jwksUrl")) return jwksField;
      if (path.startsWith("/auth/jwt/issuer")) return issuerField;
      if (path.startsWith("/auth/jwt/audience")) return audienceField;
      if (path.startsWith("/auth/jwt/clockToleranceSeconds")) return toleranceField;
      if (path.startsWith("/auth/jwt")) return algorithmField;
      if (path.startsWith("/auth")) return typeField;
      return null;
    },
  };
}
