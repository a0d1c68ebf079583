import { h } from "../dom.ts";
import { field, switchField, wholeNumberProblem } from "../field.ts";
import type { Trigger } from "../types.ts";
import type { Section } from "./section.ts";

const EXAMPLE = JSON.stringify(
  { type: "object", required: ["id", "amount"], properties: { id: { type: "string" }, amount: { type: "number", minimum: 0 } } },
  null,
  2,
);

/** The Schema region: a switch and the JSON Schema (2020-12) bodies must conform to, checked after deduplication. */
export function schemaSection(trigger: Trigger | null): Section {
  const saved = trigger?.schema;
  const toggle = switchField(
    "Schema validation",
    saved?.enabled ?? false,
    "Checked after deduplication and before the filter: a body that does not conform gets 422 with the problems (at most 20), and no run.",
  );
  const documentField = field(
    "JSON Schema",
    h(
      "textarea",
      { name: "schemaDocument", rows: 8, spellcheck: "false", class: "mono", placeholder: EXAMPLE },
      saved?.document === undefined ? "" : JSON.stringify(saved.document, null, 2),
    ),
    "JSON Schema 2020-12. Patterns run in the sandbox like every user regex; uniqueItems only for arrays of scalars.",
  );
  const size = field(
    "Body size limit (bytes)",
    h("input", {
      type: "text",
      inputmode: "numeric",
      name: "maxBodyBytes",
      value: trigger?.maxBodyBytes ? String(trigger.maxBodyBytes) : "",
      placeholder: "server default",
    }),
    "Larger bodies get 413. 1 to 104857600 (100 MiB); empty for the server's --max-body-bytes.",
  );

  const parsed = (): { value?: unknown; problem?: string } => {
    const text = documentField.control.value.trim();
    if (text === "") return {};
    try {
      const value = JSON.parse(text);
      return value !== null && typeof value === "object" && !Array.isArray(value)
        ? { value }
        : { problem: 'A JSON Schema is a JSON object, for example {"type":"object"}.' };
    } catch (error) {
      return { problem: `Not valid JSON: ${(error as Error).message}` };
    }
  };
  documentField.control.addEventListener("input", () => documentField.setError(parsed().problem ?? null));

  const el = h("fieldset", { class: "region" }, h("legend", null, "Schema"), toggle.wrap, documentField.wrap, size.wrap);
  return {
    el,
    value() {
      const { value } = parsed();
      const limit = size.control.value.trim();
      return {
        schema: { enabled: toggle.control.checked, ...(value === undefined ? {} : { document: value }) },
        ...(limit === "" ? (trigger?.maxBodyBytes ? { maxBodyBytes: null } : {}) : { maxBodyBytes: Number(limit) }),
      };
    },
    validate() {
      const { value, problem } = parsed();
      const docProblem = problem ?? (toggle.control.checked && value === undefined ? "Enter the JSON Schema that bodies must conform to." : null);
      documentField.setError(docProblem);
      const sizeProblem = wholeNumberProblem(size.control.value, 1, 104_857_600, { unit: "bytes", orEmpty: true });
      size.setError(sizeProblem);
      return docProblem ? documentField.control : sizeProblem ? size.control : null;
    },
    fields: [toggle, documentField, size],
    fieldFor(path) {
      if (path.startsWith("/schema/document")) return documentField;
      if (path.startsWith("/schema")) return toggle;
      if (path.startsWith("/maxBodyBytes")) return size;
      return null;
    },
    // A server detail deep inside the document names where in it.
    explain: (detail) => (detail.path.startsWith("/schema/document/") ? `${detail.path.slice("/schema/document".length)}: ${detail.message}` : detail.message),
  };
}
