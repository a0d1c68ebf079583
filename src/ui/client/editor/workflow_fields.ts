import { h, options } from "../dom.ts";
import { field } from "../field.ts";
import type { Trigger } from "../types.ts";

/** What one Workflow group shows: a destination's workflow and the trigger's response, as saved. */
export interface WorkflowSaved {
  workflow?: Trigger["destinations"][number]["workflow"];
  /** The trigger's response; a destination that does not answer the caller shows it as immediate. */
  response?: Trigger["response"];
}

export type WorkflowKind = "none" | "http" | "command" | "script";

export const KIND_HINTS: Record<WorkflowKind, string> = {
  none: "The run is recorded; consumers read it from the API (GET /api/runs).",
  http: "POSTs the run's $trigger as JSON to the URL; retried with backoff on network errors, 408, 429 and 5xx.",
  command: "Runs the program with these arguments (no shell); $trigger arrives as JSON on standard input.",
  script: "A JavaScript module run in the sandbox: export default ($trigger) => ({ status, headers, body }).",
};

export const MODE_HINTS = {
  immediate: "Immediate: the caller gets 200 as soon as the run is stored.",
  workflow: "Workflow: the caller waits for the workflow and gets what it authored (504 past the response timeout).",
};

const DEFAULT_SCRIPT = "export default ($trigger) => ({ status: 200, body: { ok: true } })";

/** A Workflow group's fields, holding the saved workflow and response settings (each kind's fields hold only its own). */
export function workflowFields(given: WorkflowSaved) {
  const saved = (given.workflow ?? { kind: "none" }) as { kind: WorkflowKind; [key: string]: unknown };
  const response = given.response;
  const kind = field(
    "Kind",
    h(
      "select",
      { name: "workflowKind" },
      options(
        [
          ["none", "none"],
          ["http", "http"],
          ["command", "command"],
          ["script", "script"],
        ],
        saved.kind,
      ),
    ),
    KIND_HINTS[saved.kind],
  );
  const url = field(
    "Target URL",
    h("input", {
      type: "url",
      name: "workflowUrl",
      value: saved.kind === "http" ? String(saved.url ?? "") : "",
      placeholder: "http(s)://host:port/path",
      autocomplete: "off",
      class: "mono",
    }),
  );
  const savedHeaders =
    saved.kind === "http" && saved.headers
      ? Object.entries(saved.headers as Record<string, string>)
          .map(([k, v]) => `${k}: ${v}`)
          .join("\n")
      : "";
  const headers = field(
    "Request headers",
    h("textarea", { name: "workflowHeaders", rows: 2, class: "mono", spellcheck: "false" }, savedHeaders),
    "One per line, Name: value. Sent with every delivery.",
  );
  const attempts = field(
    "Max attempts",
    h("input", {
      type: "text",
      inputmode: "numeric",
      name: "workflowAttempts",
      value: saved.kind === "http" ? String((saved.retry as { maxAttempts?: number } | undefined)?.maxAttempts ?? "") : "",
      placeholder: "5",
    }),
    "1 to 20; empty for the default (5).",
  );
  const argv = field(
    "Command",
    h(
      "textarea",
      { name: "workflowArgv", rows: 3, class: "mono", spellcheck: "false" },
      saved.kind === "command" ? ((saved.argv as string[]) ?? []).join("\n") : "",
    ),
    "The program, then one argument per line: no shell, no quoting.",
  );
  const source = field(
    "Script",
    h(
      "textarea",
      { name: "workflowSource", rows: 6, class: "mono", spellcheck: "false" },
      saved.kind === "script" ? String(saved.source ?? "") : DEFAULT_SCRIPT,
    ),
  );
  const orderingKey = field(
    "Ordering key",
    h("input", {
      type: "text",
      name: "orderingKey",
      value: typeof saved.orderingKey === "string" ? saved.orderingKey : "",
      placeholder: "$.customer.id",
      autocomplete: "off",
      spellcheck: "false",
      class: "mono",
    }),
    "Optional: a JSONPath query on the (redacted) body. Runs with the same value run one at a time, in the order they arrived; others in parallel.",
  );
  const timeout = field(
    "Timeout (ms)",
    h("input", {
      type: "text",
      inputmode: "numeric",
      name: "workflowTimeout",
      value: saved.timeoutMs === undefined ? "" : String(saved.timeoutMs),
      placeholder: "default",
    }),
    "How long one attempt may take; empty for the kind's default.",
  );
  const mode = field(
    "Response mode",
    h(
      "select",
      { name: "responseMode" },
      options(
        [
          ["immediate", "Immediate"],
          ["workflow", "Workflow"],
        ],
        response?.mode ?? "immediate",
      ),
    ),
    MODE_HINTS[response?.mode ?? "immediate"],
  );
  const responseTimeout = field(
    "Response timeout (ms)",
    h("input", { type: "text", inputmode: "numeric", name: "responseTimeout", value: String(response?.timeoutMs ?? 10000) }),
    "Workflow response mode: 504 after this long (100 to 300000).",
  );
  return { kind, url, headers, attempts, argv, source, orderingKey, timeout, mode, responseTimeout };
}

export type WorkflowFields = ReturnType<typeof workflowFields>;
