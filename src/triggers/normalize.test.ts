import { describe, expect, test } from "bun:test";
import { normalizeTrigger, type NormalizeContext } from "./normalize.ts";
import { ValidationError } from "./validation_error.ts";
import type { DestinationConfig } from "../records/destination.ts";

// The rules of docs/api.md#rules-checked-on-save, with stand-in expression rules (the real ones are the sandbox's, tested there).
const context: NormalizeContext = {
  rules: {
    checkQuery: (q) => (q.startsWith("$") ? null : "a query starts with $"),
    checkFilter: (f) => (f.includes("==") ? null : "use == for equality"),
    checkPatterns: (patterns) => patterns.flatMap((p, index) => (p.includes("(") && !p.includes(")") ? [{ index, message: "unterminated group" }] : [])),
    checkSchema: (document) => ((document as { type?: unknown }).type === "strin" ? [{ path: "/schema/document/type", message: "unknown type" }] : []),
  },
  plugins: { has: (id) => id === "github", ids: () => ["github"], get: () => undefined },
};

function details(input: unknown, current?: Parameters<typeof normalizeTrigger>[2]) {
  try {
    normalizeTrigger(input, context, current);
  } catch (error) {
    if (error instanceof ValidationError) return error.details;
    throw error;
  }
  return [];
}

test("defaults: POST, auth none with the default signature header, dedup disabled, immediate, workflow none", () => {
  expect(normalizeTrigger({ name: "orders" }, context)).toEqual({
    name: "orders",
    app: null,
    methods: ["POST"],
    auth: { type: "none", signatureHeader: "X-Signature", encoding: "hex" },
    dedup: { strategy: "disabled" },
    filter: { enabled: false, mode: "include" },
    redaction: { enabled: false, patterns: [] },
    response: { mode: "immediate", timeoutMs: 10_000 },
    workflow: { kind: "none" },
    schema: { enabled: false },
  });
});

test("a schema is checked when given or enabled; a per-trigger body limit is kept until cleared with null", () => {
  expect(details({ name: "s", schema: { enabled: true } })).toEqual([{ path: "/schema/document", message: expect.stringContaining("add the JSON Schema") }]);
  expect(details({ name: "s", schema: { enabled: true, document: { type: "strin" } } })).toEqual([{ path: "/schema/document/type", message: "unknown type" }]);
  const limited = normalizeTrigger({ name: "big", maxBodyBytes: 25_000_000 }, context);
  expect(limited.maxBodyBytes).toBe(25_000_000);
  expect(normalizeTrigger({ name: "renamed" }, context, limited).maxBodyBytes).toBe(25_000_000);
  expect(normalizeTrigger({ maxBodyBytes: null }, context, limited).maxBodyBytes).toBeUndefined();
  expect(details({ name: "x", maxBodyBytes: 104_857_601 }).map((d) => d.path)).toEqual(["/maxBodyBytes"]);
});

test("workflow headers that would fail every run are refused at save: control characters, past Latin-1, names that are not tokens", () => {
  const http = (headers: Record<string, string>) => ({ name: "h", workflow: { kind: "http", url: "https://example.com/hook", headers } });
  expect(normalizeTrigger(http({ "X-Source": "inlet", "X-Tabbed": "a\tb", "X-Name": "café" }), context).workflow).toMatchObject({
    headers: { "X-Source": "inlet" },
  });
  expect(details(http({ "X-Evil": "a\r\nSet-Cookie: x=1" }))).toEqual([
    { path: "/workflow/headers/X-Evil", message: expect.stringContaining("carriage return (U+000D) at position 2") },
  ]);
  expect(details(http({ "X-Nul": "a\0" }))).toEqual([{ path: "/workflow/headers/X-Nul", message: expect.stringContaining("NUL") }]);
  expect(details(http({ "X-Bell": "\u0007" }))).toEqual([{ path: "/workflow/headers/X-Bell", message: expect.stringContaining("control character (U+0007)") }]);
  expect(details(http({ "X-Price": "5 €" }))).toEqual([{ path: "/workflow/headers/X-Price", message: expect.stringContaining("Latin-1") }]);
  expect(details(http({ "X Source": "inlet", "a/b": "ok" }))).toEqual([
    { path: "/workflow/headers/X Source", message: expect.stringContaining("header name") },
    { path: "/workflow/headers/a~1b", message: expect.stringContaining("header name") },
  ]);
  // A patch that merges into the current workflow is checked too.
  const created = normalizeTrigger(http({ "X-Source": "inlet" }), context);
  expect(details({ workflow: { headers: { "X-Source": "in\nlet" } } }, created).map((d) => d.path)).toEqual(["/workflow/headers/X-Source"]);
});

test("a dedup window defaults to 3600 when first enabled, and a patch keeps what it does not name", () => {
  const created = normalizeTrigger({ name: "o", dedup: { strategy: "payload-hash" } }, context);
  expect(created.dedup).toEqual({ strategy: "payload-hash", windowSeconds: 3600 });
  const patched = normalizeTrigger({ dedup: { windowSeconds: 60 } }, context, created);
  expect(patched.dedup).toEqual({ strategy: "payload-hash", windowSeconds: 60 });
  expect(patched.name).toBe("o");
});

test("a patch's workflow without kind changes the current one's fields (null removes one); with kind it replaces it", () => {
  const created = normalizeTrigger({ name: "w", workflow: { kind: "http", url: "https://example.com/hook", timeoutMs: 5000 } }, context);
  const keyed = normalizeTrigger({ workflow: { orderingKey: "$.customer.id" } }, context, created);
  expect(keyed.workflow).toEqual({ kind: "http", url: "https://example.com/hook", timeoutMs: 5000, orderingKey: "$.customer.id" });
  expect(normalizeTrigger({ workflow: { orderingKey: null } }, context, keyed).workflow).toEqual(created.workflow);
  expect(normalizeTrigger({ workflow: { kind: "http", url: "https://example.com/other" } }, context, keyed).workflow).toEqual({
    kind: "http",
    url: "https://example.com/other",
  });
  // The merged workflow is checked like any other.
  expect(details({ workflow: { orderingKey: "customer.id" } }, created)).toEqual([{ path: "/workflow/orderingKey", message: "a query starts with $" }]);
  expect(details({ workflow: { url: null } }, created).map((d) => d.path)).toContain("/workflow/url");
});

test("an alert rule's problems are reported at its field, against the kind it names", () => {
  expect(
    details({
      name: "a",
      alerts: [
        { kind: "silence", seconds: 3600 },
        { kind: "backlog", count: 0 },
      ],
    }),
  ).toEqual([{ path: "/alerts/1/count", message: expect.any(String) }]);
  expect(details({ name: "a", alerts: [{ kind: "backlog", count: 5, seconds: 3 }] })).toEqual([{ path: "/alerts/0/seconds", message: expect.any(String) }]);
  expect(details({ name: "a", alerts: [{ kind: "quiet" }] })).toEqual([
    { path: "/alerts/0/kind", message: 'must be one of "silence", "auth_failures", "run_failures", "backlog", "destination_open"' },
  ]);
});

test("a name of spaces only is refused", () => {
  expect(details({ name: "   " })).toEqual([{ path: "/name", message: expect.stringContaining("blank") }]);
  expect(details({ name: " " }, normalizeTrigger({ name: "n" }, context))).toEqual([{ path: "/name", message: expect.stringContaining("blank") }]);
});

test("each rule names its path with a message that helps", () => {
  expect(details({ name: "g", methods: ["GET"], auth: { type: "hmac-sha256" } })).toEqual([
    { path: "/auth/type", message: expect.stringContaining("use bearer or header") },
  ]);
  expect(details({ name: "a", app: "nope" })).toEqual([{ path: "/app", message: 'no plugin "nope" is loaded (loaded: github)' }]);
  expect(details({ name: "a", app: "github", dedup: { strategy: "payload-hash" } }).map((d) => d.path)).toEqual(["/dedup"]);
  expect(details({ name: "x", appSecret: "s" }).map((d) => d.path)).toEqual(["/appSecret"]);
  expect(details({ name: "x", dedup: { strategy: "header-value" } }).map((d) => d.path)).toEqual(["/dedup/headerName"]);
  expect(details({ name: "x", dedup: { strategy: "expression", expression: "data.id" } })).toEqual([
    { path: "/dedup/expression", message: "a query starts with $" },
  ]);
  expect(details({ name: "x", filter: { enabled: true, expression: "$.a = 1" } })).toEqual([{ path: "/filter/expression", message: "use == for equality" }]);
  expect(details({ name: "x", redaction: { enabled: true, patterns: [] } }).map((d) => d.path)).toEqual(["/redaction/patterns"]);
  expect(details({ name: "x", redaction: { enabled: true, patterns: ["ok", "(bad"] } })).toEqual([
    { path: "/redaction/patterns/1", message: "unterminated group" },
  ]);
  expect(details({ name: "x", response: { mode: "workflow" } }).map((d) => d.path)).toEqual(["/response/mode"]);
});

test("schema errors come with paths too; a body that is not an object is refused whole", () => {
  expect(details(null)).toEqual([{ path: "", message: "the body must be a JSON object" }]);
  expect(details({ name: "x", dedup: { strategy: "payload-hash", windowSeconds: 0 } }).map((d) => d.path)).toContain("/dedup/windowSeconds");
  expect(details({ name: "x", auth: { type: "header", headerName: "bad name" } }).map((d) => d.path)).toContain("/auth/headerName");
  expect(details({ name: "x", workflow: { kind: "http" } }).map((d) => d.path)).toContain("/workflow/url");
});

test("report-only rollout: auth.mode on a generic trigger with a type, and on app triggers; sources.mode with a list", () => {
  const now = new Date();
  const until = new Date(now.getTime() + 86_400_000).toISOString();
  const report = { mode: "report", reportUntil: until };
  const saved = normalizeTrigger({ name: "b", auth: { type: "bearer", ...report }, sources: { allow: ["192.0.2.0/24"], ...report } }, context, undefined, now);
  expect(saved.auth).toMatchObject({ type: "bearer", mode: "report", reportUntil: until });
  expect(saved.sources).toEqual({ allow: ["192.0.2.0/24"], mode: "report", reportUntil: until });
  // App triggers keep auth.type none: their provider's recipe is what reports.
  expect(normalizeTrigger({ name: "gh", app: "github", auth: report }, context, undefined, now).auth).toMatchObject({ type: "none", mode: "report" });
  // A change of mode alone keeps the list; back to enforce drops the date; no entries left drops the mode.
  const enforced = normalizeTrigger({ auth: { mode: "enforce" }, sources: { mode: "enforce" } }, context, saved, now);
  expect(enforced.auth).toMatchObject({ mode: "enforce" });
  expect(enforced.auth.reportUntil).toBeUndefined();
  expect(enforced.sources).toEqual({ allow: ["192.0.2.0/24"], mode: "enforce" });
  expect(normalizeTrigger({ sources: { allow: [] } }, context, saved, now).sources).toBeUndefined();

  const refused = (input: unknown, current?: Parameters<typeof normalizeTrigger>[2]) => {
    try {
      normalizeTrigger(input, context, current, now);
    } catch (error) {
      return (error as ValidationError).details.map((d) => d.path);
    }
    return [];
  };
  expect(refused({ name: "n", auth: report })).toEqual(["/auth/mode"]);
  expect(refused({ name: "n", auth: { type: "bearer", mode: "report" } })).toEqual(["/auth/reportUntil"]);
  expect(refused({ name: "n", sources: report })).toEqual(["/sources/mode"]);
  expect(refused({ name: "n", auth: { type: "bearer", mode: "sometimes" } })).toEqual(["/auth/mode"]);
  // Once the window has ended, an unrelated change still saves; a type of none with report mode does not.
  const ended = { ...saved, auth: { ...saved.auth, reportUntil: "2020-01-01T00:00:00Z" } };
  expect(refused({ name: "renamed" }, ended)).toEqual([]);
  expect(refused({ auth: { type: "none" } }, saved)).toEqual(["/auth/mode"]);
});

describe('destinations (README "Destinations")', () => {
  const crm: DestinationConfig = { name: "crm", workflow: { kind: "http", url: "https://example.com/crm" } };
  const audit: DestinationConfig = { name: "audit", workflow: { kind: "command", argv: ["/usr/local/bin/audit"] } };
  const paths = (input: unknown, current?: Parameters<typeof normalizeTrigger>[2]) => details(input, current).map((d) => d.path);

  test("a list is stored as given; workflow follows the default destination's when it is the only one, else none", () => {
    const several = normalizeTrigger({ name: "d", destinations: [{ ...crm, concurrency: 4 }, audit] }, context);
    expect(several.destinations).toEqual([{ ...crm, concurrency: 4 }, audit]);
    expect(several.workflow).toEqual({ kind: "none" });
    const onlyDefault = normalizeTrigger({ name: "d", destinations: [{ name: "default", workflow: crm.workflow, rateLimit: { perSecond: 5 } }] }, context);
    expect(onlyDefault.destinations).toEqual([{ name: "default", workflow: crm.workflow, rateLimit: { perSecond: 5 } }]);
    expect(onlyDefault.workflow).toEqual(crm.workflow);
    expect(normalizeTrigger({ name: "d", destinations: [crm] }, context).workflow).toEqual({ kind: "none" });
    // The shorthand stores no list.
    expect("destinations" in normalizeTrigger({ name: "w", workflow: crm.workflow }, context)).toBe(false);
  });

  test("a change: destinations replace the list whole, workflow goes back to the shorthand, neither keeps the current", () => {
    const several = normalizeTrigger({ name: "d", destinations: [crm, audit] }, context);
    expect(normalizeTrigger({ destinations: [audit] }, context, several).destinations).toEqual([audit]);
    expect(normalizeTrigger({ name: "renamed" }, context, several)).toMatchObject({ destinations: [crm, audit], workflow: { kind: "none" } });
    const shorthand = normalizeTrigger({ workflow: crm.workflow }, context, several);
    expect(shorthand.workflow).toEqual(crm.workflow);
    expect(shorthand.destinations).toBeUndefined();
    const listed = normalizeTrigger({ destinations: [audit] }, context, shorthand);
    expect(listed).toMatchObject({ destinations: [audit], workflow: { kind: "none" } });
  });

  test("workflow and destinations together are refused at /destinations, on create and on change", () => {
    const message = "send workflow or destinations, not both: workflow is the shorthand for one destination named default";
    expect(details({ name: "b", workflow: { kind: "none" }, destinations: [crm] })).toEqual([{ path: "/destinations", message }]);
    expect(details({ workflow: { orderingKey: "$.id" }, destinations: [crm] }, normalizeTrigger({ name: "b" }, context))).toEqual([
      { path: "/destinations", message },
    ]);
  });

  test("a workflow without kind changes the one workflow; a trigger with a list has none to change", () => {
    const several = normalizeTrigger({ name: "d", destinations: [crm, audit] }, context);
    expect(details({ workflow: { orderingKey: "$.id" } }, several)).toEqual([
      { path: "/workflow/kind", message: expect.stringContaining("change destinations") },
    ]);
    // A list of only the default destination has its workflow to change (and becomes the shorthand).
    const onlyDefault = normalizeTrigger({ name: "d", destinations: [{ name: "default", workflow: crm.workflow }] }, context);
    const keyed = normalizeTrigger({ workflow: { orderingKey: "$.id" } }, context, onlyDefault);
    expect(keyed.workflow).toEqual({ kind: "http", url: "https://example.com/crm", orderingKey: "$.id" });
    expect(keyed.destinations).toBeUndefined();
  });

  test("names are unique in a trigger", () => {
    expect(details({ name: "d", destinations: [crm, audit, { ...audit, workflow: { kind: "none" } }] })).toEqual([
      { path: "/destinations/2/name", message: 'another destination is named "audit": names are unique in a trigger' },
    ]);
    expect(paths({ name: "d", destinations: [{ ...crm, name: "CRM" }] })).toEqual(["/destinations/0/name"]);
  });

  test("each destination's workflow is checked as the trigger's is, at its own path", () => {
    const http = (extra: Record<string, unknown>) => ({ name: "crm", workflow: { ...crm.workflow, ...extra } });
    expect(details({ name: "d", destinations: [audit, http({ headers: { "X-Evil": "a\r\nSet-Cookie: x=1" } })] })).toEqual([
      { path: "/destinations/1/workflow/headers/X-Evil", message: expect.stringContaining("carriage return") },
    ]);
    expect(details({ name: "d", destinations: [http({ orderingKey: "customer.id" })] })).toEqual([
      { path: "/destinations/0/workflow/orderingKey", message: "a query starts with $" },
    ]);
    expect(paths({ name: "d", destinations: [{ name: "crm", workflow: { kind: "http" } }] })).toEqual(["/destinations/0/workflow/url"]);
    expect(details({ name: "d", destinations: [{ name: "crm", workflow: { kind: "email" } }] })).toEqual([
      { path: "/destinations/0/workflow/kind", message: 'must be one of "none", "http", "command", "script"' },
    ]);
    // The trigger's own workflow keeps its paths.
    expect(paths({ name: "w", workflow: { ...crm.workflow, orderingKey: "id" } })).toEqual(["/workflow/orderingKey"]);
  });

  test("a destination's filter is checked with the filter rules", () => {
    expect(details({ name: "d", destinations: [{ ...crm, filter: { mode: "exclude", expression: "$.type = 1" } }] })).toEqual([
      { path: "/destinations/0/filter/expression", message: "use == for equality" },
    ]);
    expect(normalizeTrigger({ name: "d", destinations: [{ ...crm, filter: { expression: "$.type == 1" } }] }, context).destinations![0].filter).toEqual({
      expression: "$.type == 1",
    });
  });

  test("limits: transform source and timeout, rate, concurrency, breaker", () => {
    const one = (extra: Record<string, unknown>) => paths({ name: "d", destinations: [{ ...crm, ...extra }] });
    expect(one({ transform: { source: "" } })).toEqual(["/destinations/0/transform/source"]);
    expect(one({ transform: { source: "x".repeat(65_537) } })).toEqual(["/destinations/0/transform/source"]);
    expect(one({ transform: { source: "export default (t) => t", timeoutMs: 0 } })).toEqual(["/destinations/0/transform/timeoutMs"]);
    expect(one({ transform: { source: "export default (t) => t", timeoutMs: 1001 } })).toEqual(["/destinations/0/transform/timeoutMs"]);
    expect(one({ rateLimit: { perSecond: 0.001 } })).toEqual(["/destinations/0/rateLimit/perSecond"]);
    expect(one({ rateLimit: { perSecond: 10_001 } })).toEqual(["/destinations/0/rateLimit/perSecond"]);
    expect(one({ concurrency: 0 })).toEqual(["/destinations/0/concurrency"]);
    expect(one({ concurrency: 65 })).toEqual(["/destinations/0/concurrency"]);
    expect(
      one({ transform: { source: "x".repeat(65_536), timeoutMs: 1000 }, rateLimit: { perSecond: 0.01 }, concurrency: 64, breaker: { failures: 0 } }),
    ).toEqual([]);
    expect(paths({ name: "d", destinations: [] })).toEqual(["/destinations"]);
    expect(paths({ name: "d", destinations: Array.from({ length: 17 }, (_, i) => ({ name: `d${i}`, workflow: { kind: "none" } })) })).toEqual([
      "/destinations",
    ]);
  });

  test("a breaker only on http destinations", () => {
    expect(details({ name: "d", destinations: [crm, { ...audit, breaker: { failures: 3 } }] })).toEqual([
      { path: "/destinations/1/breaker", message: expect.stringContaining("the breaker watches http targets only") },
    ]);
  });

  test("respond on at most one destination; the workflow response mode needs the one that answers, with a workflow that answers", () => {
    const workflowMode = { response: { mode: "workflow" } };
    expect(
      details({
        name: "d",
        destinations: [
          { ...crm, respond: true },
          { ...audit, respond: true },
        ],
      }),
    ).toEqual([{ path: "/destinations/1/respond", message: expect.stringContaining('"crm" already does') }]);
    expect(details({ name: "d", ...workflowMode, destinations: [crm, audit] })).toEqual([
      { path: "/response/mode", message: expect.stringContaining("respond: true") },
    ]);
    expect(paths({ name: "d", ...workflowMode, destinations: [crm, { ...audit, respond: true }] })).toEqual([]);
    expect(details({ name: "d", ...workflowMode, destinations: [crm, { name: "log", workflow: { kind: "none" }, respond: true }] })).toEqual([
      { path: "/response/mode", message: expect.stringContaining('destination "log", which answers the caller, has kind "none"') },
    ]);
    // One destination answers whether or not it says respond.
    expect(paths({ name: "d", ...workflowMode, destinations: [crm] })).toEqual([]);
    expect(paths({ name: "d", ...workflowMode, destinations: [{ name: "log", workflow: { kind: "none" } }] })).toEqual(["/response/mode"]);
    // The shorthand's message is unchanged.
    expect(details({ name: "w", ...workflowMode })).toEqual([
      { path: "/response/mode", message: 'the workflow response mode needs a workflow that answers (kind "http", "command" or "script")' },
    ]);
    // A change of mode is checked against the current list.
    const several = normalizeTrigger({ name: "d", destinations: [crm, audit] }, context);
    expect(paths(workflowMode, several)).toEqual(["/response/mode"]);
  });
});
