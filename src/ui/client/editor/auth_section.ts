import { conditional, h, options } from "../dom.ts";
import { field, type Field } from "../field.ts";
import type { AuthType, Trigger } from "../types.ts";
import { headerNameProblem } from "./header_name.ts";
import { jwtFields, type JwtFields } from "./jwt_fields.ts";
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
  "hmac-sha256":
    "Callers sign the raw body with HMAC-SHA256 and send the digest in the signature header. No timestamp is signed: add Payload Hash deduplication to stop replays.",
  "hmac-sha512":
    "Callers sign the raw body with HMAC-SHA512 and send the digest in the signature header. No timestamp is signed: add Payload Hash deduplication to stop replays.",
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

/** The fields of the generic types: Methods, and where bearer's, header's, HMAC's and basic's secret travels. */
function webhookAuthFields(trigger: Trigger | null) {
  const saved = trigger?.auth;
  const typeField = field(
    "Authentication Type",
    h("select", { name: "authType" }, options(AUTH_TYPES, saved?.type ?? "none")),
    AUTH_HINTS[saved?.type ?? "none"],
  );
  const methodsValue = trigger ? trigger.methods.slice().sort().join(",") : "POST";
  const methodsField = field("Methods", h("select", { name: "methods" }, options(METHODS, methodsValue)), "");
  const headerField = field(
    "Header Name",
    h("input", { type: "text", name: "headerName", value: saved?.headerName ?? "X-Webhook-Secret", autocomplete: "off", spellcheck: "false", maxlength: 128 }),
    "The request header that carries the secret. Letters, digits and hyphens; matched case-insensitively.",
  );
  const signatureField = field(
    "Signature header",
    h("input", {
      type: "text",
      name: "signatureHeader",
      value: saved?.signatureHeader ?? "X-Signature",
      autocomplete: "off",
      spellcheck: "false",
      maxlength: 128,
    }),
    "Carries sha256=<digest> (or sha512=…), or the bare digest.",
  );
  const encodingField = field(
    "HMAC encoding",
    h(
      "select",
      { name: "encoding" },
      options(
        [
          ["hex", "hex"],
          ["base64", "base64"],
        ],
        saved?.encoding ?? "hex",
      ),
    ),
    "How the digest is written in the signature header.",
  );
  const usernameField = field(
    "Username",
    h("input", { type: "text", name: "username", value: saved?.username ?? "inlet", autocomplete: "off", spellcheck: "false", maxlength: 200 }),
    "The Basic username callers send; no colon.",
  );
  return { typeField, methodsField, headerField, signatureField, encodingField, usernameField };
}

type WebhookAuthFields = ReturnType<typeof webhookAuthFields>;

/** The body's `methods` and `auth`: the chosen type and the settings of that type only. */
function authValue(type: AuthType, f: WebhookAuthFields, jwt: JwtFields): Record<string, unknown> {
  const auth: Record<string, unknown> = { type };
  if (type === "header") auth.headerName = f.headerField.control.value.trim();
  if (isHmac(type)) {
    auth.signatureHeader = f.signatureField.control.value.trim();
    auth.encoding = f.encodingField.control.value;
  }
  if (type === "basic") auth.username = f.usernameField.control.value.trim();
  if (type === "jwt") auth.jwt = jwt.value();
  return { methods: f.methodsField.control.value.split(","), auth };
}

/** The field a server detail's path belongs to, or null. */
function authFieldFor(path: string, f: WebhookAuthFields, jwt: JwtFields): Field | null {
  if (path === "/methods") return f.methodsField;
  if (path.startsWith("/auth/headerName")) return f.headerField;
  if (path.startsWith("/auth/signatureHeader")) return f.signatureField;
  if (path.startsWith("/auth/encoding")) return f.encodingField;
  if (path.startsWith("/auth/username")) return f.usernameField;
  if (path.startsWith("/auth/jwt")) return jwt.fieldFor(path);
  if (path.startsWith("/auth")) return f.typeField;
  return null;
}

/** Authentication Type, Methods, Header Name, HMAC encoding of a generic Webhook trigger. */
export function authSection(trigger: Trigger | null): AuthSection {
  const fields = webhookAuthFields(trigger);
  const { typeField, methodsField, headerField, signatureField, encodingField, usernameField } = fields;
  const jwt = jwtFields(trigger?.auth.jwt);
  const listeners: Array<() => void> = [];
  // Each type's own fields are in the form only while that type is chosen.
  const shownFor: Array<[Field, (type: string) => boolean]> = [
    [headerField, (type) => type === "header"],
    [signatureField, isHmac],
    [encodingField, isHmac],
    [usernameField, (type) => type === "basic"],
  ];
  const slots = shownFor.map(([f, applies]) => ({ slot: conditional(f.wrap), applies }));
  const rest = h("div", { class: "stack" }, methodsField.wrap, ...slots.map((s) => s.slot.anchor), ...jwt.anchors);

  const type = () => typeField.control.value as AuthType;
  const getOnly = () => methodsField.control.value === "GET";

  function checkType(): string | null {
    return isHmac(type()) && getOnly() ? "HMAC types need a body to sign, and a GET-only trigger has none: choose bearer or header." : null;
  }

  function update() {
    typeField.hint.textContent = AUTH_HINTS[type()];
    // The seed: HMAC is not selectable when the trigger accepts only GET. Disabled in the DOM.
    for (const option of typeField.control.options) option.disabled = getOnly() && isHmac(option.value);
    methodsField.hint.textContent = getOnly() ? "GET-only: HMAC types are unavailable, since a GET request has no body to sign." : "";
    methodsField.hint.hidden = !getOnly();
    typeField.setError(checkType());
    for (const { slot, applies } of slots) slot.set(applies(type()));
    jwt.place(type() === "jwt");
    for (const listener of listeners) listener();
  }

  typeField.control.addEventListener("change", update);
  jwt.onChange(update);
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
    value: () => authValue(type(), fields, jwt),
    validate() {
      let first: HTMLElement | null = null;
      const typeProblem = checkType();
      typeField.setError(typeProblem);
      if (typeProblem) first = typeField.control;
      for (const [f, applies] of [
        [headerField, type() === "header"],
        [signatureField, isHmac(type())],
      ] as const) {
        const problem = applies ? headerNameProblem(f.control.value.trim()) : null;
        f.setError(problem);
        if (problem) first ??= f.control;
      }
      const jwtProblem = jwt.validate(type() === "jwt");
      return first ?? jwtProblem;
    },
    fields: [typeField, methodsField, headerField, signatureField, encodingField, usernameField, ...jwt.fields],
    fieldFor: (path) => authFieldFor(path, fields, jwt),
  };
}
