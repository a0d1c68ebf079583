import { api } from "../api.ts";
import { autosize } from "../autosize.ts";
import { debounce, h, options } from "../dom.ts";
import { formatTime } from "../time.ts";
import { field } from "../field.ts";
import { parseJson } from "../../../json/index.ts";
import type { Run, Trigger } from "../types.ts";
import type { SampleSource } from "./section.ts";

/** The body the trigger's sample curl command sends (src/triggers/curl.ts). */
const CURL_SAMPLE = { event_id: "evt_sample_1", type: "sample.created", data: { id: "123", email: "jane@example.com" } };

export interface SampleSection extends SampleSource {
  el: HTMLElement;
}

/**
 * The "test against a sample" box: a pasted body or a recent run's body, used by the filter's
 * true/false result and the redaction preview.
 */
export function sampleSection(trigger: Trigger | null): SampleSection {
  const body = field(
    "Sample body",
    h("textarea", { name: "sample", rows: 7, spellcheck: "false", class: "mono" }),
    "JSON, as a caller would send it. Paste one, or pick a recent run's body.",
  );
  body.control.value = JSON.stringify(CURL_SAMPLE, null, 2);
  // The whole sample shows (a long one scrolls), never a box that cuts its last line.
  const fit = autosize(body.control);
  const listeners: Array<() => void> = [];
  const notify = debounce(() => listeners.forEach((l) => l()), 250);

  const source: SampleSource = {
    get() {
      const text = body.control.value.trim();
      if (text === "") return { state: "empty" };
      try {
        // Numbers as written (an id beyond 2^53 too): the check then answers as the live request will.
        return { state: "ok", value: parseJson(text) };
      } catch (error) {
        return { state: "invalid", message: `The sample is not valid JSON: ${(error as Error).message}` };
      }
    },
    subscribe: (listener) => listeners.push(listener),
  };

  body.control.addEventListener("input", () => {
    const s = source.get();
    body.setError(s.state === "invalid" ? s.message : null);
    notify();
  });

  const parts: Node[] = [h("legend", null, "Test against a sample"), body.wrap];
  if (trigger) {
    const picker = field(
      "Recent run",
      h("select", { name: "recentRun" }, options([["", "Loading recent runs…"]])),
      "Bodies of runs are stored after redaction.",
    );
    picker.control.disabled = true;
    let runs: Run[] = [];
    api<Run[]>("GET", `/api/runs?triggerId=${encodeURIComponent(trigger.id)}&include=trigger&limit=20`)
      .then((list) => {
        runs = list.filter((r) => r.trigger && "body" in r.trigger);
        picker.control.replaceChildren(
          ...options([
            ["", runs.length ? "Choose a recent run…" : "No runs yet"],
            ...runs.map((r) => [r.id, `${formatTime(r.createdAt)} · ${r.requestId.slice(0, 8)}`] as const),
          ]),
        );
        picker.control.disabled = runs.length === 0;
      })
      .catch(() => picker.control.replaceChildren(...options([["", "Recent runs could not be loaded"]])));
    picker.control.addEventListener("change", () => {
      const run = runs.find((r) => r.id === picker.control.value);
      if (!run) return;
      body.control.value = JSON.stringify(run.trigger?.body ?? null, null, 2);
      body.setError(null);
      fit();
      listeners.forEach((l) => l());
    });
    parts.push(picker.wrap);
  }
  return { ...source, el: h("fieldset", { class: "region sample" }, parts) };
}
