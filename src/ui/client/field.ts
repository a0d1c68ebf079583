import { autosize } from "./autosize.ts";
import { h, uid } from "./dom.ts";

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** A labelled control with its hint and its validation message, wired for assistive tech. */
export interface Field<C extends Control = Control> {
  wrap: HTMLDivElement;
  control: C;
  hint: HTMLParagraphElement;
  label: string;
  /** Shows (or clears, with null) the message tied to the control. */
  setError(message: string | null): void;
  error(): string | null;
}

function wired<C extends Control>(
  label: string,
  control: C,
  hint: string | undefined,
  layout: (hint: HTMLElement, error: HTMLElement) => HTMLDivElement,
): Field<C> {
  const hintEl = h("p", { class: "hint", id: uid("hint") }, hint ?? "");
  const errorEl = h("p", { class: "error", id: uid("err"), "aria-live": "polite" });
  hintEl.hidden = !hint;
  let current: string | null = null;
  // The message joins the description and is the control's error message while it is invalid.
  const describe = () => {
    const ids = [hintEl.hidden ? "" : hintEl.id, current ? errorEl.id : ""].filter(Boolean);
    if (ids.length) control.setAttribute("aria-describedby", ids.join(" "));
    else control.removeAttribute("aria-describedby");
  };
  new MutationObserver(describe).observe(hintEl, { attributes: true, attributeFilter: ["hidden"] });
  describe();
  const wrap = layout(hintEl, errorEl);
  return {
    wrap,
    control,
    hint: hintEl,
    label,
    setError(message) {
      current = message;
      errorEl.textContent = message ?? "";
      if (message) {
        control.setAttribute("aria-invalid", "true");
        control.setAttribute("aria-errormessage", errorEl.id);
      } else {
        control.removeAttribute("aria-invalid");
        control.removeAttribute("aria-errormessage");
      }
      wrap.classList.toggle("invalid", !!message);
      describe();
    },
    error: () => current,
  };
}

/** `label` above `control` (and `extra` beside it), then the hint and the message. */
export function field<C extends Control>(label: string, control: C, hint?: string, extra?: Node): Field<C> {
  control.id ||= uid("f");
  return wired(label, control, hint, (hintEl, errorEl) =>
    h("div", { class: "field" }, h("label", { for: control.id }, label), extra ? h("div", { class: "control-row" }, control, extra) : control, hintEl, errorEl),
  );
}

/**
 * A checkbox exposed as a switch, its label beside it, and its state written out ("On" /
 * "Off: not applied") so that off is plain without fading what it governs: faded text fails
 * contrast, and the region's fields stay editable while it is off. Screen readers hear the
 * switch's own checked state, so the written state is for the eye only.
 */
export function switchField(label: string, checked: boolean, hint?: string): Field<HTMLInputElement> {
  const control = h("input", { type: "checkbox", role: "switch", id: uid("sw"), class: "switch", checked });
  const state = h("span", { class: "switch-state", "aria-hidden": "true" });
  const showState = () => {
    state.textContent = control.checked ? "On" : "Off: not applied";
    state.classList.toggle("on", control.checked);
  };
  control.addEventListener("change", showState);
  showState();
  return wired(label, control, hint, (hintEl, errorEl) =>
    h("div", { class: "field switch-field" }, h("div", { class: "switch-row" }, control, h("label", { for: control.id }, label), state), hintEl, errorEl),
  );
}

/** A plain checkbox, its label beside it: one of several choices in a fieldset (a switch turns one setting on or off). */
export function checkboxField(label: string, checked: boolean, hint?: string): Field<HTMLInputElement> {
  const control = h("input", { type: "checkbox", id: uid("cb"), checked });
  return wired(label, control, hint, (hintEl, errorEl) =>
    h("div", { class: "field check-field" }, h("div", { class: "switch-row" }, control, h("label", { for: control.id }, label)), hintEl, errorEl),
  );
}

export function readonlyInput(value: string, multiline = false): HTMLInputElement | HTMLTextAreaElement {
  if (multiline) {
    const area = h("textarea", { readonly: true, rows: 2, spellcheck: "false", class: "mono" });
    area.value = value;
    autosize(area, 24);
    return area;
  }
  return h("input", { type: "text", readonly: true, value, spellcheck: "false", class: "mono" });
}

/**
 * The problem with a whole-number field's text, or null: from `min` to `max`, in `unit` when
 * given ("seconds"). Empty is fine (the default) unless `required`; `orEmpty` says so.
 */
export function wholeNumberProblem(
  text: string,
  min: number,
  max: number,
  options: { unit?: string; required?: boolean; orEmpty?: boolean } = {},
): string | null {
  const t = text.trim();
  if (t === "" && !options.required) return null;
  const n = Number(t);
  if (t !== "" && Number.isInteger(n) && n >= min && n <= max) return null;
  return `Enter a whole number${options.unit ? ` of ${options.unit}` : ""} from ${min} to ${max}${options.orEmpty ? ", or leave it empty" : ""}.`;
}

/** A JSONPath query field's first rule, checked before asking the server: it starts with `$`. */
export function queryStartProblem(text: string, example: string): string | null {
  const t = text.trim();
  return t === "" || t.startsWith("$") ? null : `A JSONPath query starts with $, for example ${example}.`;
}
