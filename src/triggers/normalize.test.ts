import { expect, test } from "bun:test";
import { normalizeTrigger, type NormalizeContext } from "./normalize.ts";
import { ValidationError } from "./validation_error.ts";

// The rules of CONTRACT §3, with stand-in expression rules (the real ones are the sandbox's, tested there).
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
  expect(normalizeTrigger(http({ "X-Source": "inlet", "X-Tabbed": "a\tb", "X-Name": "café" }), context).workflow).toMatchObject({ headers: { "X-Source": "inlet" } });
  expect(details(http({ "X-Evil": "a\r\nSet-Cookie: x=1" }))).toEqual([{ path: "/workflow/headers/X-Evil", message: expect.stringContaining("carriage return (U+000D) at position 2") }]);
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
  expect(normalizeTrigger({ workflow: { kind: "http", url: "https://example.com/other" } }, context, keyed).workflow).toEqual({ kind: "http", url: "https://example.com/other" });
  // The merged workflow is checked like any other.
  expect(details({ workflow: { orderingKey: "customer.id" } }, created)).toEqual([{ path: "/workflow/orderingKey", message: "a query starts with $" }]);
  expect(details({ workflow: { url: null } }, created).map((d) => d.path)).toContain("/workflow/url");
});

test("an alert rule's problems are reported at its field, against the kind it names", () => {
  expect(details({ name: "a", alerts: [{ kind: "silence", seconds: 3600 }, { kind: "backlog", count: 0 }] })).toEqual([{ path: "/alerts/1/count", message: expect.any(String) }]);
  expect(details({ name: "a", alerts: [{ kind: "backlog", count: 5, seconds: 3 }] })).toEqual([{ path: "/alerts/0/seconds", message: expect.any(String) }]);
  expect(details({ name: "a", alerts: [{ kind: "quiet" }] })).toEqual([{ path: "/alerts/0/kind", message: 'must be one of "silence", "auth_failures", "run_failures", "backlog"' }]);
});

test("a name of spaces only is refused", () => {
  expect(details({ name: "   " })).toEqual([{ path: "/name", message: expect.stringContaining("blank") }]);
  expect(details({ name: " " }, normalizeTrigger({ name: "n" }, context))).toEqual([{ path: "/name", message: expect.stringContaining("blank") }]);
});

test("each rule names its path with a message that helps", () => {
  expect(details({ name: "g", methods: ["GET"], auth: { type: "hmac-sha256" } })).toEqual([{ path: "/auth/type", message: expect.stringContaining("use bearer or header") }]);
  expect(details({ name: "a", app: "nope" })).toEqual([{ path: "/app", message: 'no plugin "nope" is loaded (loaded: github)' }]);
  expect(details({ name: "a", app: "github", dedup: { strategy: "payload-hash" } }).map((d) => d.path)).toEqual(["/dedup"]);
  expect(details({ name: "x", appSecret: "s" }).map((d) => d.path)).toEqual(["/appSecret"]);
  expect(details({ name: "x", dedup: { strategy: "header-value" } }).map((d) => d.path)).toEqual(["/dedup/headerName"]);
  expect(details({ name: "x", dedup: { strategy: "expression", expression: "data.id" } })).toEqual([{ path: "/dedup/expression", message: "a query starts with $" }]);
  expect(details({ name: "x", filter: { enabled: true, expression: "$.a = 1" } })).toEqual([{ path: "/filter/expression", message: "use == for equality" }]);
  expect(details({ name: "x", redaction: { enabled: true, patterns: [] } }).map((d) => d.path)).toEqual(["/redaction/patterns"]);
  expect(details({ name: "x", redaction: { enabled: true, patterns: ["ok", "(bad"] } })).toEqual([{ path: "/redaction/patterns/1", message: "unterminated group" }]);
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
