import { conditional, h, options } from "../dom.ts";
import { field, queryStartProblem, wholeNumberProblem, type Field } from "../field.ts";
import type { Trigger } from "../types.ts";
import type { Section } from "./section.ts";

type Kind = "none" | "http" | "command" | "script";

const KIND_HINTS: Record<Kind, string> = {
  none: "The run is recorded; consumers read it from the API (GET /api/runs).",
  http: "POSTs the run's $trigger as JSON to the URL; retried with backoff on network errors, 408, 429 and 5xx.",
  command: "Runs the program with these arguments (no shell); $trigger arrives as JSON on standard input.",
  script: "A JavaScript module run in the sandbox: export default ($trigger) => ({ status, headers, body }).",
};

const MODE_HINTS = {
  immediate: "Immediate: the caller gets 200 as soon as the run is stored.",
  workflow: "Workflow: the caller waits for the workflow and gets what it authored (504 past the response timeout).",
};

const DEFAULT_SCRIPT = "export default ($trigger) => ({ status: 200, body: { ok: true } })";

const lines = (text: string) => text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "");

/** `Name: value` lines → a headers object; a line without a colon is reported by its number. */
function parseHeaders(text: string): { headers: Record<string, string> } | { problem: string } {
  const headers: Record<string, string> = {};
  for (const [i, line] of lines(text).entries()) {
    const colon = line.indexOf(":");
    if (colon <= 0) return { problem: `Line ${i + 1}: write Name: value.` };
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { headers };
}

function headersProblem(text: string): string | null {
  const parsed = parseHeaders(text);
  return "problem" in parsed ? parsed.problem : null;
}

/** A whole number within bounds, or the problem with it; "" is "use the default". */
const wholeNumber = (f: Field, min: number, max: number) => wholeNumberProblem(f.control.value, min, max);

const numberOrUndefined = (f: Field) => (f.control.value.trim() === "" ? undefined : Number(f.control.value.trim()));

/** The Workflow region: what a run does (kind and its fields) and how the caller is answered. */
export function workflowSection(trigger: Trigger | null): Section {
  const saved = (trigger?.workflow ?? { kind: "none" }) as { kind: Kind; [key: string]: unknown };
  const kind = field("Kind", h("select", { name: "workflowKind" }, options([["none", "none"], ["http", "http"], ["command", "command"], ["script", "script"]], saved.kind)), KIND_HINTS[saved.kind]);
  const url = field("Target URL", h("input", { type: "url", name: "workflowUrl", value: saved.kind === "http" ? String(saved.url ?? "") : "", placeholder: "http(s)://host:port/path", autocomplete: "off", class: "mono" }));
  const savedHeaders = saved.kind === "http" && saved.headers ? Object.entries(saved.headers as Record<string, string>).map(([k, v]) => `${k}: ${v}`).join("\n") : "";
  const headers = field("Request headers", h("textarea", { name: "workflowHeaders", rows: 2, class: "mono", spellcheck: "false" }, savedHeaders), "One per line, Name: value. Sent with every delivery.");
  const attempts = field("Max attempts", h("input", { type: "text", inputmode: "numeric", name: "workflowAttempts", value: saved.kind === "http" ? String((saved.retry as { maxAttempts?: number } | undefined)?.maxAttempts ?? "") : "", placeholder: "5" }), "1 to 20; empty for the default (5).");
  const argv = field("Command", h("textarea", { name: "workflowArgv", rows: 3, class: "mono", spellcheck: "false" }, saved.kind === "command" ? ((saved.argv as string[]) ?? []).join("\n") : ""), "The program, then one argument per line: no shell, no quoting.");
  const source = field("Script", h("textarea", { name: "workflowSource", rows: 6, class: "mono", spellcheck: "false" }, saved.kind === "script" ? String(saved.source ?? "") : DEFAULT_SCRIPT));
  const orderingKey = field(
    "Ordering key",
    h("input", { type: "text", name: "orderingKey", value: typeof saved.orderingKey === "string" ? saved.orderingKey : "", placeholder: "$.customer.id", autocomplete: "off", spellcheck: "false", class: "mono" }),
    "Optional: a JSONPath query on the (redacted) body. Runs with the same value run one at a time, in the order they arrived; others in parallel.",
  );
  const timeout = field("Timeout (ms)", h("input", { type: "text", inputmode: "numeric", name: "workflowTimeout", value: saved.timeoutMs === undefined ? "" : String(saved.timeoutMs), placeholder: "default" }), "How long one attempt may take; empty for the kind's default.");
  const mode = field(
    "Response mode",
    h("select", { name: "responseMode" }, options([["immediate", "Immediate"], ["workflow", "Workflow"]], trigger?.response.mode ?? "immediate")),
    MODE_HINTS[trigger?.response.mode ?? "immediate"],
  );
  const responseTimeout = field("Response timeout (ms)", h("input", { type: "text", inputmode: "numeric", name: "responseTimeout", value: String(trigger?.response.timeoutMs ?? 10000) }), "Workflow response mode: 504 after this long (100 to 300000).");

  const byKind: Record<Kind, Field[]> = {
    none: [],
    http: [url, headers, attempts, timeout, orderingKey],
    command: [argv, timeout, orderingKey],
    script: [source, timeout, orderingKey],
  };
  const all = [url, headers, attempts, argv, source, timeout, orderingKey];
  const slots = new Map(all.map((f) => [f, conditional(f.wrap)]));
  const current = () => kind.control.value as Kind;
  const place = () => {
    for (const f of all) slots.get(f)!.set(byKind[current()].includes(f));
    kind.hint.textContent = KIND_HINTS[current()];
    const answering = current() !== "none";
    mode.control.querySelector<HTMLOptionElement>('option[value="workflow"]')!.disabled = !answering;
    if (!answering && mode.control.value === "workflow") mode.control.value = "immediate";
    slots.get(responseTimeout)!.set(mode.control.value === "workflow");
  };
  slots.set(responseTimeout, conditional(responseTimeout.wrap));
  kind.control.addEventListener("change", place);
  mode.control.addEventListener("change", () => {
    mode.hint.textContent = MODE_HINTS[mode.control.value as "immediate" | "workflow"];
    place();
  });

  const el = h(
    "fieldset",
    { class: "region" },
    h("legend", null, "Workflow"),
    kind.wrap,
    ...all.map((f) => slots.get(f)!.anchor),
    mode.wrap,
    slots.get(responseTimeout)!.anchor,
  );
  place();

  function value(): Record<string, unknown> {
    const k = current();
    const t = numberOrUndefined(timeout);
    const key = orderingKey.control.value.trim();
    let workflow: Record<string, unknown>;
    switch (k) {
      case "http": {
        const parsed = parseHeaders(headers.control.value);
        const max = numberOrUndefined(attempts);
        workflow = {
          kind: k,
          url: url.control.value.trim(),
          ...("headers" in parsed && Object.keys(parsed.headers).length ? { headers: parsed.headers } : {}),
          ...(t === undefined ? {} : { timeoutMs: t }),
          ...(max === undefined ? {} : { retry: { maxAttempts: max } }),
        };
        break;
      }
      case "command":
        workflow = { kind: k, argv: lines(argv.control.value), ...(t === undefined ? {} : { timeoutMs: t }) };
        break;
      case "script":
        workflow = { kind: k, source: source.control.value, ...(t === undefined ? {} : { timeoutMs: t }) };
        break;
      default:
        workflow = { kind: "none" };
    }
    if (k !== "none" && key !== "") workflow.orderingKey = key;
    const response: Record<string, unknown> = { mode: mode.control.value };
    const rt = numberOrUndefined(responseTimeout);
    if (mode.control.value === "workflow" && rt !== undefined) response.timeoutMs = rt;
    return { workflow, response };
  }

  return {
    el,
    value,
    validate() {
      const k = current();
      const problems = new Map<Field, string | null>([
        [url, k === "http" && !/^https?:\/\/\S+$/.test(url.control.value.trim()) ? "Enter the http:// or https:// URL to POST to." : null],
        [headers, k === "http" ? headersProblem(headers.control.value) : null],
        [attempts, k === "http" ? wholeNumber(attempts, 1, 20) : null],
        [argv, k === "command" && lines(argv.control.value).length === 0 ? "Enter the program to run, for example /usr/local/bin/deploy.sh." : null],
        [source, k === "script" && source.control.value.trim() === "" ? "Enter the script's source." : null],
        [timeout, k === "none" ? null : wholeNumber(timeout, k === "script" ? 1 : 100, k === "command" ? 3_600_000 : k === "script" ? 60_000 : 300_000)],
        [responseTimeout, mode.control.value === "workflow" ? wholeNumber(responseTimeout, 100, 300_000) : null],
        [orderingKey, k !== "none" ? queryStartProblem(orderingKey.control.value, "$.customer.id") : null],
      ]);
      let first: HTMLElement | null = null;
      for (const [f, problem] of problems) {
        f.setError(problem);
        if (problem) first ??= f.control;
      }
      return first;
    },
    fields: [kind, ...all, mode, responseTimeout],
    fieldFor(path) {
      if (path.startsWith("/workflow/url")) return url;
      if (path.startsWith("/workflow/headers")) return headers;
      if (path.startsWith("/workflow/retry")) return attempts;
      if (path.startsWith("/workflow/argv")) return argv;
      if (path.startsWith("/workflow/source")) return source;
      if (path.startsWith("/workflow/timeoutMs")) return timeout;
      if (path.startsWith("/workflow/orderingKey")) return orderingKey;
      if (path.startsWith("/workflow")) return kind;
      if (path.startsWith("/response/timeoutMs")) return responseTimeout;
      if (path.startsWith("/response")) return mode;
      return null;
    },
  };
}
