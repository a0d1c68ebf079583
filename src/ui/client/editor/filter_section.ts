import { check } from "../api.ts";
import { debounce, h, options } from "../dom.ts";
import { field, switchField } from "../field.ts";
import type { Trigger } from "../types.ts";
import type { SampleSource, Section } from "./section.ts";

const MODE_HINTS = {
  include: "Include: the workflow runs only when the expression is true; otherwise 200 and no run.",
  exclude: "Exclude: the workflow is skipped (200, no run) when the expression is true.",
};

/** The Pre-Execution Filter region: switch, Mode, Expression checked live, and its result on the sample. */
export function filterSection(trigger: Trigger | null, sample: SampleSource): Section {
  const saved = trigger?.filter;
  const toggle = switchField("Pre-Execution Filter", saved?.enabled ?? false, "Checked after deduplication, against the parsed body.");
  const mode = field(
    "Mode",
    h(
      "select",
      { name: "filterMode" },
      options(
        [
          ["include", "Include"],
          ["exclude", "Exclude"],
        ],
        saved?.mode ?? "include",
      ),
    ),
    MODE_HINTS[saved?.mode ?? "include"],
  );
  const expression = field(
    "Expression",
    h("input", {
      type: "text",
      name: "filterExpression",
      value: saved?.expression ?? "",
      placeholder: '$.type == "order.paid"',
      autocomplete: "off",
      spellcheck: "false",
      class: "mono",
    }),
    'A JSONPath boolean expression on the body. Equality is ==, strings in quotes; &&, ||, !, <, > work. Example: $.type == "order.paid" && $.amount > 100',
  );
  const result = h("output", { class: "result", for: expression.control.id });
  const resultRow = h("div", { class: "sample-result" }, h("span", { class: "muted" }, "On the sample: "), result);

  let seq = 0;
  const run = debounce(async () => {
    const mine = ++seq;
    const source = expression.control.value.trim();
    result.className = "result";
    if (source === "") {
      expression.setError(null);
      result.textContent = "enter an expression to test it";
      return;
    }
    const s = sample.get();
    try {
      const checked = await check("filter", source);
      if (mine !== seq) return;
      expression.setError(checked.ok ? null : checked.error);
      if (!checked.ok) {
        result.textContent = "fix the expression to test it";
        return;
      }
      if (s.state !== "ok") {
        result.textContent = s.state === "empty" ? "paste a sample body to test it" : "the sample is not valid JSON";
        return;
      }
      const evaluated = await check("filter", source, s.value);
      if (mine !== seq) return;
      if (!evaluated.ok) {
        result.textContent = evaluated.error;
        return;
      }
      const value = evaluated.result === true;
      const runs = mode.control.value === "include" ? value : !value;
      result.textContent = `${value} (${runs ? "the workflow runs" : "skipped: 200, no run"})`;
      result.classList.add(value ? "true" : "false");
    } catch (error) {
      if (mine === seq) result.textContent = `could not be checked: ${(error as Error).message}`;
    }
  }, 300);

  mode.control.addEventListener("change", () => {
    mode.hint.textContent = MODE_HINTS[mode.control.value as "include" | "exclude"];
    run();
  });
  expression.control.addEventListener("input", run);
  toggle.control.addEventListener("change", () => el.classList.toggle("off", !toggle.control.checked));
  sample.subscribe(run);
  run();

  const el = h("fieldset", { class: "region" }, h("legend", null, "Pre-Execution Filter"), toggle.wrap, mode.wrap, expression.wrap, resultRow);
  el.classList.toggle("off", !toggle.control.checked);

  return {
    el,
    value: () => ({ filter: { enabled: toggle.control.checked, mode: mode.control.value, expression: expression.control.value.trim() } }),
    validate() {
      const source = expression.control.value.trim();
      const problem =
        toggle.control.checked && source === "" ? 'Enter the expression to filter on, for example $.type == "order.paid".' : source ? expression.error() : null;
      expression.setError(problem);
      return problem ? expression.control : null;
    },
    fields: [toggle, mode, expression],
    fieldFor(path) {
      if (path.startsWith("/filter/expression")) return expression;
      if (path.startsWith("/filter/mode")) return mode;
      if (path.startsWith("/filter")) return toggle;
      return null;
    },
  };
}
