import { conditional, h, options } from "../dom.ts";
import { field, type Field } from "../field.ts";
import type { AuthType, Trigger } from "../types.ts";
import { headerNameProblem } from "./header_name.ts";
import type { Section } from "./section.ts";

const AUTH_TYPES: ReadonlyArray<readonly [AuthType, string]> = [
  ["none", "none"],
  ["bearer", "bearer"],
  ["header", "header"],
  ["hmac-sha256", "hmac-sha256"],
  ["hmac-sha512", "hmac-sha512"],
];

const AUTH_HINTS: Record<AuthType, string> = {
  none: "No credential: the URL alone is the credential. Use it only for prototyping and trusted networks.",
  bearer: "Callers send Authorization: Bearer <secret>. inlet generates the secret.",
  header: "Callers send the secret in the header named below. inlet generates the secret.",
  "hmac-sha256": "Callers sign the raw body with HMAC-SHA256 and send the digest in the signature header. No timestamp is signed: add Payload Hash deduplication to stop replays.",
  "hmac-sha512": "Callers sign the raw body with HMAC-SHA512 and send the digest in the signature header. No timestamp is signed: add Payload Hash deduplication to stop replays.",
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
  const listeners: Array<() => void> = [];
  const headerSlot = conditional(headerField.wrap);
  const signatureSlot = conditional(signatureField.wrap);
  const encodingSlot = conditional(encodingField.wrap);
  const rest = h("div", { class: "stack" }, methodsField.wrap, headerSlot.anchor, signatureSlot.anchor, encodingSlot.anchor);

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
    headerSlot.set(type() === "header");
    signatureSlot.set(isHmac(type()));
    encodingSlot.set(isHmac(type()));
    for (const listener of listeners) listener();
  }

  typeField.control.addEventListener("change", update);
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
      return first;
    },
    fields: [typeField, methodsField, headerField, signatureField, encodingField],
    fieldFor(path) {
      if (path === "/methods") return methodsField;
      if (path.startsWith("/auth/headerName")) return headerField;
      if (path.startsWith("/auth/signatureHeader")) return signatureField;
      if (path.startsWith("/auth/encoding")) return encodingField;
      if (path.startsWith("/auth")) return typeField;
      return null;
    },
  };
}
