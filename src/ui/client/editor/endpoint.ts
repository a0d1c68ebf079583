import { api } from "../api.ts";
import { h, replaceChildren, uid } from "../dom.ts";
import { timeEl } from "../time.ts";
import { copyButton } from "../copy.ts";
import { readonlyInput, wholeNumberProblem } from "../field.ts";
import type { Plugin, Trigger } from "../types.ts";

/** A read-only value with its buttons; `actions` gets the label's id, so each button is described by what it acts on. */
function readonlyField(label: string, control: HTMLInputElement | HTMLTextAreaElement, hint: string, actions: (labelId: string) => Node[]): HTMLElement {
  control.id = uid("ro");
  const labelEl = h("label", { for: control.id, id: uid("lbl") }, label);
  const hintEl = h("p", { class: "hint", id: uid("hint") }, hint);
  control.setAttribute("aria-describedby", hintEl.id);
  return h("div", { class: "field" }, labelEl, h("div", { class: "control-row" }, control, ...actions(labelEl.id)), hintEl);
}

function curlHint(t: Trigger): string {
  if (t.app)
    return `A sample request without the provider's signature (a real one comes from the provider, signed with its secret). For a signed test request, on the server: inlet sign ${t.id} --body event.json`;
  switch (t.auth.type) {
    case "bearer":
    case "header":
    case "basic":
      return "Reads the secret from $INLET_SECRET: run export INLET_SECRET='<the secret>' first.";
    case "jwt":
      return "Reads a signed JWT (with exp) from $INLET_JWT: run export INLET_JWT='<a token>' first.";
    case "hmac-sha256":
    case "hmac-sha512":
      return "Carries a valid signature of its sample body: it runs as is.";
    default:
      return "No credential needed: the URL alone is the credential.";
  }
}

/** `Rotate secret` with `Overlap (seconds)`: a new secret at once, the previous one verifying for the overlap. */
function rotation(trigger: Trigger, onRotated: () => void, pasted: { label: string; optional?: boolean } | null = null): HTMLElement {
  const fresh = pasted ? h("input", { type: "password", id: uid("new-secret"), autocomplete: "off", spellcheck: "false", class: "mono" }) : null;
  const overlap = h("input", { type: "text", inputmode: "numeric", id: uid("overlap"), value: "86400", class: "short" });
  const hint = h(
    "p",
    { class: "hint", id: uid("hint") },
    "How long the previous secret keeps working (0 to 604800; 86400 is a day), so callers can switch without a gap.",
  );
  const previous = trigger.auth.previousSecretExpiresAt;
  const status = h("p", { role: "status", class: "muted" }, previous ? ["The previous secret works until ", timeEl(previous), "."] : "");
  const error = h("p", { class: "error", id: uid("err"), "aria-live": "polite" });
  overlap.setAttribute("aria-describedby", hint.id);
  const button = h("button", { type: "button", class: "secondary small" }, "Rotate secret");
  button.addEventListener("click", async () => {
    const n = Number(overlap.value.trim());
    const problem = wholeNumberProblem(overlap.value, 0, 604_800, { unit: "seconds" }); // empty: 0, at once
    if (problem) {
      error.textContent = problem;
      overlap.setAttribute("aria-invalid", "true");
      overlap.setAttribute("aria-errormessage", error.id);
      return;
    }
    overlap.removeAttribute("aria-invalid");
    if (fresh && !pasted!.optional && fresh.value.trim() === "") {
      error.textContent = `Paste the new ${pasted!.label.toLowerCase()} the provider gave you.`;
      fresh.setAttribute("aria-invalid", "true");
      fresh.setAttribute("aria-errormessage", error.id);
      fresh.focus();
      return;
    }
    fresh?.removeAttribute("aria-invalid");
    error.textContent = "";
    button.disabled = true;
    try {
      const rotated = await api<{ previousExpiresAt: string }>("POST", `/api/triggers/${encodeURIComponent(trigger.id)}/rotate`, {
        overlapSeconds: n,
        ...(fresh && fresh.value.trim() !== "" ? { appSecret: fresh.value.trim() } : {}),
      });
      if (fresh) fresh.value = "";
      replaceChildren(
        status,
        n > 0
          ? ["Rotated. Reveal shows the new secret; the previous one works until ", timeEl(rotated.previousExpiresAt), "."]
          : "Rotated. Reveal shows the new secret; the previous one no longer works.",
      );
      onRotated();
    } catch (e) {
      error.textContent = `Not rotated: ${(e as Error).message}`;
    } finally {
      button.disabled = false;
    }
  });
  const newSecret = fresh
    ? [
        h(
          "label",
          { for: fresh.id },
          pasted!.optional ? `New ${pasted!.label.toLowerCase()} (only if you pasted your own)` : `New ${pasted!.label.toLowerCase()}`,
        ),
        fresh,
      ]
    : [];
  return h(
    "div",
    { class: "field rotation" },
    ...newSecret,
    h("label", { for: overlap.id }, "Overlap (seconds)"),
    h("div", { class: "control-row" }, overlap, button),
    hint,
    error,
    status,
  );
}

/** The saved trigger's address, its generated secret (hidden until revealed) and the sample curl command. */
export function endpointSection(trigger: Trigger, plugin: Plugin | null): HTMLElement {
  const url = readonlyInput(trigger.url);
  const parts: Node[] = [readonlyField("URL", url, "Callers send their webhooks here.", (id) => [copyButton(id, () => trigger.url)])];

  const generated = trigger.app ? plugin?.secret.generated === true : trigger.auth.type !== "none";
  if (generated && trigger.auth.hasSecret) {
    let secret: string | null = null;
    const fetchSecret = async () => (secret ??= (await api<{ secret: string }>("GET", `/api/triggers/${encodeURIComponent(trigger.id)}/secret`)).secret);
    const input = h("input", {
      type: "password",
      readonly: true,
      spellcheck: "false",
      class: "mono",
      placeholder: "Hidden: select Reveal",
      autocomplete: "off",
    });
    const reveal = h("button", { type: "button", class: "secondary small", "aria-pressed": "false" }, "Reveal");
    const describeReveal = (labelId: string) => (reveal.setAttribute("aria-describedby", labelId), reveal);
    reveal.addEventListener("click", async () => {
      if (input.type === "password") {
        try {
          input.value = await fetchSecret();
        } catch (error) {
          input.placeholder = `Could not load the secret: ${(error as Error).message}`;
          return;
        }
        input.type = "text";
        reveal.setAttribute("aria-pressed", "true");
      } else {
        input.type = "password";
        input.value = "";
        reveal.setAttribute("aria-pressed", "false");
      }
    });
    const label = trigger.app ? (plugin?.secret.label ?? "Secret") : "Secret";
    const hint = trigger.app
      ? `Generated by inlet: paste it into ${plugin?.name ?? trigger.app}'s webhook settings. Rotate it below.`
      : "Generated by inlet. Rotate it below: the previous one can keep working for an overlap.";
    parts.push(readonlyField(label, input, hint, (id) => [describeReveal(id), copyButton(id, fetchSecret)]));
    // An app trigger whose plugin generates a secret may have been given one instead (pasted at
    // create): it rotates the way it was set up, so the next secret can be pasted here (empty: a
    // new one is generated; the API says which the trigger needs).
    const mayBeGiven = trigger.app ? { label: plugin?.secret.label ?? "Secret", optional: true } : null;
    parts.push(
      rotation(
        trigger,
        () => {
          secret = null;
          if (input.type === "text") reveal.click();
        },
        mayBeGiven,
      ),
    );
  }

  // A secret the provider gives (pasted, write-only) rotates with the new one pasted here.
  if (trigger.app && !generated && trigger.auth.hasSecret) parts.push(rotation(trigger, () => {}, { label: plugin?.secret.label ?? "Secret" }));

  const curl = readonlyInput(trigger.curl, true);
  const curlRow = readonlyField("Curl Command", curl, curlHint(trigger), (id) => [copyButton(id, () => trigger.curl)]);
  curlRow.classList.add("stacked");
  parts.push(curlRow);
  return h("div", { class: "endpoint" }, parts);
}
