import { conditional, h, options } from "../dom.ts";
import { field, type Field } from "../field.ts";
import type { DedupStrategy, Trigger } from "../types.ts";
import { dedupExpression } from "./dedup_expression.ts";
import { DEFAULT_WINDOW, windowField, windowProblem } from "./dedup_window.ts";
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

/** The Deduplication region of a generic Webhook trigger. */
export function dedupSection(trigger: Trigger | null, sample: SampleSource): Section {
  const saved = trigger?.dedup;
  const strategy = field("Strategy", h("select", { name: "dedupStrategy" }, options(STRATEGIES, saved?.strategy ?? "disabled")), "");
  const headerName = field(
    "Header name",
    h("input", {
      type: "text",
      name: "dedupHeaderName",
      value: saved?.headerName ?? "",
      placeholder: "Idempotency-Key",
      autocomplete: "off",
      spellcheck: "false",
      maxlength: 128,
    }),
    "The request header that holds the idempotency key.",
  );
  const current = () => strategy.control.value as DedupStrategy;
  const expression = dedupExpression(saved?.expression, sample, () => current() === "expression");
  const windowSeconds = windowField(saved?.windowSeconds);

  const headerSlot = conditional(headerName.wrap);
  const expressionSlot = conditional(expression.field.wrap);
  const windowSlot = conditional(windowSeconds.wrap);
  const el = h(
    "fieldset",
    { class: "region" },
    h("legend", null, "Deduplication"),
    h(
      "p",
      { class: "region-intro" },
      "Checked first, before the body is parsed: a duplicate gets 200 and starts no run. Deduplicated requests appear in Activity.",
    ),
    strategy.wrap,
    headerSlot.anchor,
    expressionSlot.anchor,
    windowSlot.anchor,
  );

  function update() {
    const on = current() !== "disabled";
    strategy.hint.textContent = STRATEGY_HINTS[current()];
    strategy.hint.hidden = false;
    headerSlot.set(current() === "header-value");
    expressionSlot.set(current() === "expression");
    windowSlot.set(on);
    // The seed: 3600 by default when deduplication is first enabled.
    if (on && windowSeconds.control.value === "") windowSeconds.control.value = String(DEFAULT_WINDOW);
    expression.check();
  }
  strategy.control.addEventListener("change", update);
  headerName.control.addEventListener("input", () => headerName.setError(headerNameProblem(headerName.control.value.trim())));
  update();

  return {
    el,
    value() {
      const dedup: Record<string, unknown> = { strategy: current() };
      if (current() === "header-value") dedup.headerName = headerName.control.value.trim();
      if (current() === "expression") dedup.expression = expression.field.control.value.trim();
      if (current() !== "disabled") dedup.windowSeconds = Number(windowSeconds.control.value);
      return { dedup };
    },
    validate() {
      let first: HTMLElement | null = null;
      const s = current();
      const query = expression.field;
      const problems: Array<[Field, string | null]> = [
        [headerName, s === "header-value" ? headerNameProblem(headerName.control.value.trim(), "the header that holds the key") : null],
        [
          query,
          s === "expression" && query.control.value.trim() === ""
            ? "Enter a JSONPath query, for example $.data.id."
            : s === "expression"
              ? query.error()
              : null,
        ],
        [windowSeconds, s !== "disabled" ? windowProblem(windowSeconds.control.value) : null],
      ];
      for (const [f, problem] of problems) {
        f.setError(problem);
        if (problem) first ??= f.control;
      }
      return first;
    },
    fields: [strategy, headerName, expression.field, windowSeconds],
    fieldFor(path) {
      if (path.startsWith("/dedup/headerName")) return headerName;
      if (path.startsWith("/dedup/expression")) return expression.field;
      if (path.startsWith("/dedup/windowSeconds")) return windowSeconds;
      if (path.startsWith("/dedup")) return strategy;
      return null;
    },
  };
}
