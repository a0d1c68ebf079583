import { h, options } from "../dom.ts";
import { field } from "../field.ts";
import type { Destination } from "../types.ts";

const FILTER_MODE_HINTS = {
  include: "Include: this destination gets a run only when the expression is true.",
  exclude: "Exclude: this destination gets no run when the expression is true.",
};

/**
 * A destination group's own fields besides its Workflow group, holding the saved values: its
 * name, filter (mode beside it), transform, rate limit and concurrency.
 */
export function destinationFields(saved: Partial<Destination>) {
  const name = field(
    "Destination name",
    h("input", {
      type: "text",
      name: "destinationName",
      value: saved.name ?? "",
      maxlength: 40,
      autocomplete: "off",
      spellcheck: "false",
      class: "mono",
      placeholder: "crm",
    }),
    "Lower-case letters, digits and hyphens; each run carries it.",
  );
  const filterMode = h(
    "select",
    { name: "destinationFilterMode", "aria-label": "Filter mode" },
    options(
      [
        ["include", "Include"],
        ["exclude", "Exclude"],
      ],
      saved.filter?.mode ?? "include",
    ),
  );
  const filter = field(
    "Destination filter",
    h("input", {
      type: "text",
      name: "destinationFilter",
      value: saved.filter?.expression ?? "",
      placeholder: '$.type == "order.paid"',
      autocomplete: "off",
      spellcheck: "false",
      class: "mono",
    }),
    `Optional: a JSONPath boolean expression on the (redacted) body, after the trigger's own filter. ${FILTER_MODE_HINTS[saved.filter?.mode ?? "include"]}`,
    filterMode,
  );
  filterMode.addEventListener("change", () => {
    filter.hint.textContent = `Optional: a JSONPath boolean expression on the (redacted) body, after the trigger's own filter. ${FILTER_MODE_HINTS[filterMode.value as "include" | "exclude"]}`;
  });
  const transform = field(
    "Transform",
    h(
      "textarea",
      {
        name: "destinationTransform",
        rows: 3,
        class: "mono",
        spellcheck: "false",
        placeholder: "export default ($trigger, ctx) => ({ body: { id: $trigger.body.id } })",
      },
      saved.transform?.source ?? "",
    ),
    "Optional: a module run in the sandbox before the workflow; it returns { body, headers } for this destination instead of $trigger, or null to skip the run.",
  );
  const rateLimit = field(
    "Rate limit (per second)",
    h("input", {
      type: "text",
      inputmode: "decimal",
      name: "destinationRateLimit",
      value: saved.rateLimit ? String(saved.rateLimit.perSecond) : "",
      placeholder: "no limit",
      autocomplete: "off",
    }),
    "Run starts per second, 0.01 to 10000; empty for no limit.",
  );
  const concurrency = field(
    "Concurrency",
    h("input", {
      type: "text",
      inputmode: "numeric",
      name: "destinationConcurrency",
      value: saved.concurrency === undefined ? "" : String(saved.concurrency),
      placeholder: "2",
      autocomplete: "off",
    }),
    "Runs at once, 1 to 64; empty for the default (2).",
  );
  return { name, filter, filterMode, transform, rateLimit, concurrency };
}

export type DestinationFields = ReturnType<typeof destinationFields>;
