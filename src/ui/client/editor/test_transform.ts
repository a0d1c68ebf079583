import { api } from "../api.ts";
import { h, replaceChildren } from "../dom.ts";
import type { Field } from "../field.ts";
import { jsonView } from "../json_view.ts";
import type { TransformTestResult } from "../types.ts";
import type { SampleSource } from "./section.ts";

/** The `$trigger` a transform test hands the transform: the sample body, as a POST with no headers or query. */
export const sampleTrigger = (body: unknown) => ({ body, headers: {}, query: {}, method: "POST" });

/** What the transform test says before (or instead of) calling the server, or null to call it. */
export function transformTestBlocker(source: string, sample: ReturnType<SampleSource["get"]>): string | null {
  if (source.trim() === "") return "Enter a transform to test it.";
  if (sample.state === "empty") return "Paste a sample body (Test against a sample) to test the transform.";
  if (sample.state === "invalid") return "The sample body is not valid JSON.";
  return null;
}

/**
 * The `Test transform` button and what it shows: the transform run on the editor's sample body
 * through `POST /api/transform/test` (nothing is stored or sent), its result or its error.
 */
export function transformTest(transform: Field, sample: SampleSource): HTMLElement {
  const button = h("button", { type: "button", class: "secondary small" }, "Test transform");
  const said = h("p", { class: "transform-said", role: "status" });
  const shown = h("div", { class: "transform-result" });
  let seq = 0;

  button.addEventListener("click", async () => {
    const mine = ++seq;
    const s = sample.get();
    replaceChildren(shown);
    said.classList.remove("error");
    const blocked = transformTestBlocker(transform.control.value, s);
    if (blocked || s.state !== "ok") {
      said.textContent = blocked;
      return;
    }
    said.textContent = "Testing…";
    try {
      const answer = await api<TransformTestResult>("POST", "/api/transform/test", { source: transform.control.value, trigger: sampleTrigger(s.value) });
      if (mine !== seq) return;
      if ("error" in answer) {
        said.textContent = `The transform failed: ${answer.error}`;
        said.classList.add("error");
      } else if (answer.result === null) {
        said.textContent = "It returned null: the run would be skipped.";
      } else {
        said.textContent = "On the sample body it returns:";
        replaceChildren(shown, jsonView(answer.result, "Returned body and headers"));
      }
    } catch (error) {
      if (mine === seq) said.textContent = `Could not be tested: ${(error as Error).message}`;
    }
  });

  return h("div", { class: "transform-test" }, button, said, shown);
}
