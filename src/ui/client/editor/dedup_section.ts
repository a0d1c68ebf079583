import { check } from "../api.ts";
import { conditional, debounce, h, options, uid } from "../dom.ts";
import { field, queryStartProblem } from "../field.ts";
import type { DedupStrategy, Trigger } from "../types.ts";
import { headerNameProblem } from "./header_name.ts";
import type { SampleSource, Section } from "./section.ts";

const STRATEGIES: ReadonlyArray<readonly [DedupStrategy, string]> = [
  ["disabled", "Disabled"],
  ["event-id", "Event ID"],
  ["payload-hash", "Payload Hash"],
  ["header-value", "Header Value"],
  ["expression", "Expression"],
];

const STRATEGY_HINTS: Record<DedupStrategy, string> = {
  disabled: "No deduplication: every request starts a run.",
  "event-id": "The event id at a well-known place in the body (event_id, eventId, event.id, meta.event_id, webhook_id, delivery_id, id).",
  "payload-hash": "The exact bytes of the body: byte-identical bodies are duplicates, such as replays of a signed request.",
  "header-value": "The value of the request header named below, such as an idempotency key.",
  expression: "The value a JSONPath query selects from the body.",
};

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

/** The Deduplication region of a generic Webhook trigger. */
export function dedupSection(trigger: Trigger | null, sample: SampleSource): Section {
  const saved = trigger?.dedup;
  const strategy = field("Strategy", h("select", { name: "dedupStrategy" }, options(STRATEGIES, saved?.strategy ?? "disabled")), "");
  const headerName = field(
    "Header name",
    h("input", { type: "text", name: "dedupHeaderName", value: saved?.headerName ?? "", placeholder: "Idempotency-Key", autocomplete: "off", spellcheck: "false", maxlength: 128 }),
    "The request header that holds the idempotency key.",
  );
  const expressionPreview = h("p", { class: "preview", role: "status" });
  const expression = field(
    "Expression",
    h("input", { type: "text", name: "dedupExpression", value: saved?.expression ?? "", placeholder: "$.data.id", autocomplete: "off", spellcheck: "false", class: "mono" }),
    "An RFC 9535 JSONPath query, for example $.data.id.",
  );
  expression.wrap.append(expressionPreview);
  const listId = uid("windows");
  const windowInput = h("input", { type: "number", name: "windowSeconds", min: 1, max: MAX_WINDOW, step: 1, inputmode: "numeric", list: listId, value: saved?.windowSeconds ?? "" });
  const presets = h(
    "span",
    { class: "presets" },
    PRESETS.map(([seconds, label]) =>
      // The name starts with the visible text (WCAG 2.5.3, label in name), then says it in words.
      h("button", { type: "button", class: "chip", onClick: () => setWindow(String(seconds)) }, `${seconds} s`, h("span", { class: "sr-only" }, ` (${seconds} seconds, ${label})`)),
    ),
  );
  const windowField = field("Window (seconds)", windowInput, "A repeat of a key seen within this many seconds is a duplicate: no run, 200 to the caller. At most 86400 (24 hours).", presets);
  windowField.wrap.append(h("datalist", { id: listId }, PRESETS.map(([seconds, label]) => h("option", { value: seconds, label }))));

  function setWindow(value: string) {
    windowInput.value = value;
    windowField.setError(windowProblem(value));
    windowInput.focus();
  }

  const headerSlot = conditional(headerName.wrap);
  const expressionSlot = conditional(expression.wrap);
  const windowSlot = conditional(windowField.wrap);
  const el = h(
    "fieldset",
    { class: "region" },
    h("legend", null, "Deduplication"),
    h("p", { class: "region-intro" }, "Checked first, before the body is parsed: a duplicate gets 200 and starts no run. Deduplicated requests appear in Activity."),
    strategy.wrap,
    headerSlot.anchor,
    expressionSlot.anchor,
    windowSlot.anchor,
  );

  const current = () => strategy.control.value as DedupStrategy;
  let seq = 0;
  const checkExpression = debounce(async () => {
    const mine = ++seq;
    const source = expression.control.value.trim();
    if (current() !== "expression" || source === "") {
      expressionPreview.textContent = "";
      return;
    }
    // The first rule is checked here, in the words the Ordering key field uses, before asking the server.
    const start = queryStartProblem(source, "$.data.id");
    if (start) {
      expression.setError(start);
      expressionPreview.textContent = "";
      return;
    }
    try {
      const s = sample.get();
      const result = await check("jsonpath", source, s.state === "ok" ? s.value : undefined);
      if (mine !== seq) return;
      expression.setError(result.ok ? null : result.error);
      expressionPreview.textContent = result.ok && s.state === "ok" ? `On the sample it selects: ${JSON.stringify(result.result)}` : "";
    } catch {
      // The server re-checks on Save; a failed check call is not the user's problem here.
    }
  }, 300);

  function update() {
    const on = current() !== "disabled";
    strategy.hint.textContent = STRATEGY_HINTS[current()];
    strategy.hint.hidden = false;
    headerSlot.set(current() === "header-value");
    expressionSlot.set(current() === "expression");
    windowSlot.set(on);
    // The seed: 3600 by default when deduplication is first enabled.
    if (on && windowInput.value === "") windowInput.value = String(DEFAULT_WINDOW);
    checkExpression();
  }
  strategy.control.addEventListener("change", update);
  windowInput.addEventListener("input", () => windowField.setError(windowProblem(windowInput.value)));
  headerName.control.addEventListener("input", () => headerName.setError(headerNameProblem(headerName.control.value.trim())));
  expression.control.addEventListener("input", checkExpression);
  sample.subscribe(checkExpression);
  update();

  return {
    el,
    value() {
      const dedup: Record<string, unknown> = { strategy: current() };
      if (current() === "header-value") dedup.headerName = headerName.control.value.trim();
      if (current() === "expression") dedup.expression = expression.control.value.trim();
      if (current() !== "disabled") dedup.windowSeconds = Number(windowInput.value);
      return { dedup };
    },
    validate() {
      let first: HTMLElement | null = null;
      const s = current();
      const problems: Array<[typeof headerName, string | null]> = [
        [headerName, s === "header-value" ? headerNameProblem(headerName.control.value.trim(), "the header that holds the key") : null],
        [expression, s === "expression" && expression.control.value.trim() === "" ? "Enter a JSONPath query, for example $.data.id." : s === "expression" ? expression.error() : null],
        [windowField, s !== "disabled" ? windowProblem(windowInput.value) : null],
      ];
      for (const [f, problem] of problems) {
        f.setError(problem);
        if (problem) first ??= f.control;
      }
      return first;
    },
    fields: [strategy, headerName, expression, windowField],
    fieldFor(path) {
      if (path.startsWith("/dedup/headerName")) return headerName;
      if (path.startsWith("/dedup/expression")) return expression;
      if (path.startsWith("/dedup/windowSeconds")) return windowField;
      if (path.startsWith("/dedup")) return strategy;
      return null;
    },
  };
}
