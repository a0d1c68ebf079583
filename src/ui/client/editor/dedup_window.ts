import { h, uid } from "../dom.ts";
import { field, type Field } from "../field.ts";

export const DEFAULT_WINDOW = 3600;
export const MAX_WINDOW = 86400;
const PRESETS = [
  [60, "1 minute"],
  [3600, "1 hour"],
  [86400, "24 hours"],
] as const;

export function windowProblem(raw: string): string | null {
  if (raw.trim() === "") return `Enter the window in seconds, from 1 to ${MAX_WINDOW}.`;
  const n = Number(raw);
  if (!Number.isInteger(n)) return "Use a whole number of seconds.";
  if (n < 1) return "The window must be at least 1 second.";
  if (n > MAX_WINDOW) return `The window can be at most ${MAX_WINDOW} seconds (24 hours).`;
  return null;
}

/** Window (seconds): a number field with preset buttons beside it and the presets as its suggestions, checked as it is typed. */
export function windowField(saved: number | undefined): Field<HTMLInputElement> {
  const listId = uid("windows");
  const input = h("input", { type: "number", name: "windowSeconds", min: 1, max: MAX_WINDOW, step: 1, inputmode: "numeric", list: listId, value: saved ?? "" });
  const presets = h(
    "span",
    { class: "presets" },
    PRESETS.map(([seconds, label]) =>
      // The name starts with the visible text (WCAG 2.5.3, label in name), then says it in words.
      h(
        "button",
        { type: "button", class: "chip", onClick: () => setWindow(String(seconds)) },
        `${seconds} s`,
        h("span", { class: "sr-only" }, ` (${seconds} seconds, ${label})`),
      ),
    ),
  );
  const windowSeconds = field(
    "Window (seconds)",
    input,
    "A repeat of a key seen within this many seconds is a duplicate: no run, 200 to the caller. At most 86400 (24 hours).",
    presets,
  );
  windowSeconds.wrap.append(
    h(
      "datalist",
      { id: listId },
      PRESETS.map(([seconds, label]) => h("option", { value: seconds, label })),
    ),
  );

  function setWindow(value: string) {
    input.value = value;
    windowSeconds.setError(windowProblem(value));
    input.focus();
  }
  input.addEventListener("input", () => windowSeconds.setError(windowProblem(input.value)));
  return windowSeconds;
}
