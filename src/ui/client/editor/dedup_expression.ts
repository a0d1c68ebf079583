import { check } from "../api.ts";
import { debounce, h } from "../dom.ts";
import { field, queryStartProblem, type Field } from "../field.ts";
import type { SampleSource } from "./section.ts";

/** The Expression strategy's JSONPath query, checked by the server as it is typed, with what it selects from the sample. */
export interface DedupExpression {
  field: Field<HTMLInputElement>;
  /** Checks the query again (debounced): after a change of strategy, say. */
  check(): void;
}

/** `applies` says whether the Expression strategy is chosen: otherwise nothing is checked and the preview is empty. */
export function dedupExpression(saved: string | undefined, sample: SampleSource, applies: () => boolean): DedupExpression {
  const preview = h("p", { class: "preview", role: "status" });
  const expression = field(
    "Expression",
    h("input", {
      type: "text",
      name: "dedupExpression",
      value: saved ?? "",
      placeholder: "$.data.id",
      autocomplete: "off",
      spellcheck: "false",
      class: "mono",
    }),
    "An RFC 9535 JSONPath query, for example $.data.id.",
  );
  expression.wrap.append(preview);

  let seq = 0;
  const checkExpression = debounce(async () => {
    const mine = ++seq;
    const source = expression.control.value.trim();
    if (!applies() || source === "") {
      preview.textContent = "";
      return;
    }
    // The first rule is checked here, in the words the Ordering key field uses, before asking the server.
    const start = queryStartProblem(source, "$.data.id");
    if (start) {
      expression.setError(start);
      preview.textContent = "";
      return;
    }
    try {
      const s = sample.get();
      const result = await check("jsonpath", source, s.state === "ok" ? s.value : undefined);
      if (mine !== seq) return;
      expression.setError(result.ok ? null : result.error);
      preview.textContent = result.ok && s.state === "ok" ? `On the sample it selects: ${JSON.stringify(result.result)}` : "";
    } catch {
      // The server re-checks on Save; a failed check call is not the user's problem here.
    }
  }, 300);
  expression.control.addEventListener("input", checkExpression);
  sample.subscribe(checkExpression);
  return { field: expression, check: checkExpression };
}
