import { h } from "../dom.ts";

/** Input types whose value is typed (read-only works); the others (checkbox, radio…) are disabled instead. */
const TYPED = new Set(["text", "password", "number", "url", "email", "search", "tel"]);

/**
 * A trigger a config file manages (README "Triggers as code"): the editor says so with the
 * sentence "Managed by config file", shows every setting read-only and has no Save (nor Delete,
 * nor Rotate: the API answers 409 to them). What still works stays: the URL and the secret
 * (Reveal, Copy), Arm, a destination's Pause and Resume and Test transform, and the sample body
 * on the side.
 */
export function showManaged(form: HTMLFormElement, working: Element[]): void {
  const works = (el: Element) => working.some((part) => part.contains(el)) || el.closest(".arm, .destination-state, .transform-test") !== null;
  for (const control of form.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement>(
    "input, select, textarea, button",
  )) {
    if (works(control) && !control.closest(".rotation")) continue;
    if (control instanceof HTMLTextAreaElement || (control instanceof HTMLInputElement && TYPED.has(control.type))) control.readOnly = true;
    else control.disabled = true;
  }
  for (const rotation of form.querySelectorAll(".rotation")) rotation.remove();
  form.querySelector(".actions")?.remove();
  form.prepend(
    h(
      "div",
      { class: "note managed", role: "note" },
      h("p", { class: "note-title" }, "Managed by config file"),
      h(
        "p",
        null,
        "Its settings come from a config file: change them there and apply it (inlet apply -f FILE, or a server started with --config FILE --watch). Reveal and Arm still work here.",
      ),
    ),
  );
  // Enter in a field submits no change either.
  form.addEventListener("submit", (event) => (event.preventDefault(), event.stopImmediatePropagation()), { capture: true });
}
