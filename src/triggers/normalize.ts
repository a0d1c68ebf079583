import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { jwtRuleErrors } from "../auth/jwt_rules.ts";
import { parseCidr } from "../net/cidr.ts";
import { headerNameProblem, headerValueProblem } from "../net/header_field.ts";
import { AlertRuleSchema } from "../records/alert.ts";
import {
  TriggerInputSchema,
  TriggerPatchSchema,
  WorkflowSchema,
  type AuthConfig,
  type DedupConfig,
  type FilterConfig,
  type Method,
  type RedactionConfig,
  type PayloadSchemaConfig,
  type ResponseConfig,
  type TriggerConfig,
  type TriggerInput,
  type TriggerPatch,
  type WorkflowConfig,
} from "../records/trigger.ts";
import { schemaErrors, ValidationError, type ValidationDetail } from "./validation_error.ts";

const inputCheck = TypeCompiler.Compile(TriggerInputSchema);
const patchCheck = TypeCompiler.Compile(TriggerPatchSchema);
interface Variant {
  kind: string;
  check: { Check(value: unknown): boolean };
}
const variantsOf = (union: { anyOf: Array<{ properties: { kind: { const: unknown } } } & TSchema> }): Variant[] =>
  union.anyOf.map((schema) => ({ kind: schema.properties.kind.const as string, check: TypeCompiler.Compile(schema) }));
const workflowVariants = variantsOf(WorkflowSchema);
const alertVariants = variantsOf(AlertRuleSchema);

export const DEFAULT_WINDOW_SECONDS = 3600;
export const DEFAULT_SIGNATURE_HEADER = "X-Signature";
export const DEFAULT_HEADER_NAME = "X-Webhook-Secret";
export const DEFAULT_BASIC_USERNAME = "inlet";
export const DEFAULT_RESPONSE_TIMEOUT_MS = 10_000;

/**
 * The checks on user expressions that live with the sandbox and JSONPath engine; each returns
 * `null` when the input is fine, or a message that helps fix it.
 */
export interface ExpressionRules {
  checkQuery(source: string): string | null;
  checkFilter(source: string): string | null;
  /** One message per bad pattern, by index. */
  checkPatterns(patterns: string[]): Array<{ index: number; message: string }>;
  /** The problems of a JSON Schema document, with paths under `/schema/document`. */
  checkSchema(document: unknown): ValidationDetail[];
}

/** What the rules (and the trigger service) need to know about the loaded plugins. */
export interface PluginCatalog {
  has(id: string): boolean;
  ids(): string[];
  /**
   * `adoptsSecret`: its triggers are armed to adopt a secret from a handshake (trust on first use);
   * `secret.generated`: inlet generates its triggers' secret (see secret_policy.ts).
   */
  get(id: string): { adoptsSecret?: boolean; secret?: { generated: boolean } } | undefined;
}

export interface NormalizeContext {
  rules: ExpressionRules;
  plugins: PluginCatalog;
}

/** The settings part of a trigger: everything but ids and times. */
export type TriggerSettings = Omit<TriggerConfig, "id" | "token" | "createdAt" | "updatedAt">;

function schemaCheck(value: unknown, patch: boolean): void {
  const check = patch ? patchCheck : inputCheck;
  if (check.Check(value)) return;
  let details = methodsAsOne(schemaErrors(check as never, value));
  const { workflow, alerts } = (value ?? {}) as { workflow?: unknown; alerts?: unknown };
  details = byVariant(details, "/workflow", workflow, workflowVariants);
  if (Array.isArray(alerts)) alerts.forEach((rule, i) => (details = byVariant(details, `/alerts/${i}`, rule, alertVariants)));
  throw new ValidationError(details);
}

/**
 * A union told apart by `kind` (a workflow, an alert rule) fails as "expected union value" at
 * its own path; this reports it against the variant its `kind` names instead (or says which
 * kinds there are), so each problem has its field's path.
 */
function byVariant(details: ValidationDetail[], path: string, value: unknown, variants: Variant[]): ValidationDetail[] {
  const inside = (d: ValidationDetail) => d.path === path || d.path.startsWith(`${path}/`);
  if (!details.some(inside) || value === null || typeof value !== "object" || Array.isArray(value)) return details;
  const rest = details.filter((d) => !inside(d));
  const variant = variants.find((v) => v.kind === (value as { kind?: unknown }).kind);
  if (!variant) return [...rest, { path: `${path}/kind`, message: `must be one of ${variants.map((v) => JSON.stringify(v.kind)).join(", ")}` }];
  return [...rest, ...schemaErrors(variant.check as never, value).map((d) => ({ path: `${path}${d.path}`, message: d.message }))];
}

/** Problems with `methods` are one problem: which lists are allowed. */
function methodsAsOne(details: ValidationDetail[]): ValidationDetail[] {
  if (!details.some((d) => d.path.startsWith("/methods"))) return details;
  return [...details.filter((d) => !d.path.startsWith("/methods")), { path: "/methods", message: 'must be ["POST"], ["GET"] or ["GET", "POST"]' }];
}

function methodsOf(methods: readonly Method[] | undefined): Method[] {
  if (!methods) return ["POST"];
  return methods.includes("GET") && methods.includes("POST") ? ["GET", "POST"] : [...methods];
}

function mergeAuth(prev: AuthConfig | undefined, patch: Partial<AuthConfig> | undefined): AuthConfig {
  const merged = { ...(prev ?? { type: "none" }), ...(patch ?? {}) } as AuthConfig;
  const type = merged.type ?? "none";
  return {
    type,
    ...(merged.headerName !== undefined || type === "header" ? { headerName: merged.headerName ?? DEFAULT_HEADER_NAME } : {}),
    signatureHeader: merged.signatureHeader ?? DEFAULT_SIGNATURE_HEADER,
    encoding: merged.encoding ?? "hex",
    ...(type === "basic" ? { username: merged.username ?? DEFAULT_BASIC_USERNAME } : {}),
    ...(type === "jwt" ? { jwt: merged.jwt ?? { algorithms: ["HS256"] } } : {}),
  };
}

function mergeDedup(prev: DedupConfig | undefined, patch: Partial<DedupConfig> | undefined): DedupConfig {
  const merged = { strategy: "disabled", ...(prev ?? {}), ...(patch ?? {}) } as DedupConfig;
  // The seed: the window defaults to 3600 when deduplication is first enabled.
  if (merged.strategy !== "disabled" && merged.windowSeconds === undefined) merged.windowSeconds = DEFAULT_WINDOW_SECONDS;
  return merged;
}

/**
 * A PATCH's `workflow` without `kind` changes fields of the current workflow (`null` removes
 * one), so `{"workflow":{"orderingKey":"$.customer.id"}}` needs nothing else; with `kind` it
 * replaces the workflow whole, which is how a field is dropped by sending the workflow without it.
 */
function withWorkflowChanges(patch: Record<string, unknown>, current: WorkflowConfig): Record<string, unknown> {
  const changes = patch.workflow;
  if (changes === null || typeof changes !== "object" || Array.isArray(changes) || "kind" in changes) return patch;
  const merged: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(changes)) {
    if (value === null) delete merged[field];
    else merged[field] = value;
  }
  return { ...patch, workflow: merged };
}

/**
 * Applies defaults to a create body (or a patch on top of the current settings) and checks every
 * rule of CONTRACT §3. Throws {@link ValidationError} listing each problem with its path.
 */
export function normalizeTrigger(input: unknown, context: NormalizeContext, current?: TriggerSettings): TriggerSettings {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new ValidationError([{ path: "", message: "the body must be a JSON object" }]);
  }
  const patched = current ? withWorkflowChanges(input as Record<string, unknown>, current.workflow) : input;
  schemaCheck(patched, current !== undefined);
  const body = patched as TriggerInput & TriggerPatch;
  const app = body.app !== undefined ? body.app : (current?.app ?? null);
  const settings: TriggerSettings = {
    name: body.name ?? current!.name,
    app,
    methods: methodsOf((body.methods as Method[] | undefined) ?? current?.methods),
    auth: mergeAuth(current?.auth, body.auth as Partial<AuthConfig>),
    dedup: mergeDedup(current?.dedup, body.dedup),
    filter: { enabled: false, mode: "include", ...(current?.filter ?? {}), ...(body.filter ?? {}) } as FilterConfig,
    redaction: { enabled: false, patterns: [], ...(current?.redaction ?? {}), ...(body.redaction ?? {}) } as RedactionConfig,
    response: { mode: "immediate", timeoutMs: DEFAULT_RESPONSE_TIMEOUT_MS, ...(current?.response ?? {}), ...(body.response ?? {}) } as ResponseConfig,
    workflow: (body.workflow ?? current?.workflow ?? { kind: "none" }) as WorkflowConfig,
    schema: { enabled: false, ...(current?.schema ?? {}), ...(body.schema ?? {}) } as PayloadSchemaConfig,
  };
  // null clears a per-trigger limit (back to the server's); absent keeps the current one.
  const maxBodyBytes = body.maxBodyBytes === undefined ? current?.maxBodyBytes : (body.maxBodyBytes ?? undefined);
  if (maxBodyBytes !== undefined) settings.maxBodyBytes = maxBodyBytes;
  const alerts = body.alerts ?? current?.alerts;
  if (alerts && alerts.length > 0) settings.alerts = alerts;
  const sources = body.sources ?? current?.sources;
  if (sources && sources.allow.length > 0) settings.sources = { allow: sources.allow.map((entry) => entry.trim()) };
  const details = ruleErrors(settings, body, context);
  if (details.length) throw new ValidationError(details);
  return settings;
}

/**
 * Headers an http workflow sends on every run: one that fetch would refuse (a control character,
 * a character past Latin-1, a name that is not a token) would fail every run, so it is refused
 * here, where the API, the CLI and configuration files all save.
 */
function workflowHeaderErrors(headers: Record<string, string>): ValidationDetail[] {
  const out: ValidationDetail[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const path = `/workflow/headers/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const nameProblem = headerNameProblem(name);
    if (nameProblem) out.push({ path, message: `the header name ${nameProblem}` });
    const valueProblem = headerValueProblem(value);
    if (valueProblem) out.push({ path, message: `the value ${valueProblem}` });
  }
  return out;
}

function ruleErrors(s: TriggerSettings, body: TriggerPatch, { rules, plugins }: NormalizeContext): ValidationDetail[] {
  const out: ValidationDetail[] = [];
  if (s.name.trim() === "") out.push({ path: "/name", message: "must not be blank: a name people can tell the trigger by" });
  const hmac = s.auth.type === "hmac-sha256" || s.auth.type === "hmac-sha512";
  if (hmac && s.methods.length === 1 && s.methods[0] === "GET") {
    out.push({ path: "/auth/type", message: "HMAC types need a body to sign: not available when the trigger accepts only GET (use bearer or header)" });
  }
  if (s.auth.type === "jwt") out.push(...jwtRuleErrors(s.auth.jwt!));
  if (s.app !== null) {
    if (!plugins.has(s.app)) out.push({ path: "/app", message: `no plugin ${JSON.stringify(s.app)} is loaded (loaded: ${plugins.ids().join(", ") || "none"})` });
    if (body.dedup !== undefined || s.dedup.strategy !== "disabled") {
      out.push({ path: "/dedup", message: "app triggers have no dedup settings: inlet collapses the provider's retries by its delivery id automatically" });
    }
    if (s.auth.type !== "none") out.push({ path: "/auth/type", message: "app triggers are authenticated by the provider's own recipe; leave auth.type as none" });
    if (s.methods.length !== 1 || s.methods[0] !== "POST") out.push({ path: "/methods", message: 'app triggers accept ["POST"] (GET and HEAD reach only the provider handshake)' });
  } else if (body.appSecret !== undefined) {
    out.push({ path: "/appSecret", message: "appSecret is for app triggers only (set app to a plugin id)" });
  }
  if (s.dedup.strategy === "header-value" && !s.dedup.headerName) out.push({ path: "/dedup/headerName", message: "is required for the header-value strategy" });
  if (s.dedup.strategy === "expression") {
    if (!s.dedup.expression) out.push({ path: "/dedup/expression", message: "is required for the expression strategy (for example $.data.id)" });
    else {
      const problem = rules.checkQuery(s.dedup.expression);
      if (problem) out.push({ path: "/dedup/expression", message: problem });
    }
  }
  if (s.workflow.kind === "http") out.push(...workflowHeaderErrors(s.workflow.headers ?? {}));
  const orderingKey = "orderingKey" in s.workflow ? s.workflow.orderingKey : undefined;
  if (orderingKey !== undefined) {
    const problem = rules.checkQuery(orderingKey);
    if (problem) out.push({ path: "/workflow/orderingKey", message: problem });
  }
  if (s.filter.enabled || s.filter.expression) {
    if (!s.filter.expression) out.push({ path: "/filter/expression", message: 'is required when the filter is enabled (for example $.type == "order.paid")' });
    else {
      const problem = rules.checkFilter(s.filter.expression);
      if (problem) out.push({ path: "/filter/expression", message: problem });
    }
  }
  (s.sources?.allow ?? []).forEach((entry, i) => {
    const parsed = parseCidr(entry);
    if (!parsed.ok) out.push({ path: `/sources/allow/${i}`, message: `${parsed.reason}: write an address (203.0.113.7, 2001:db8::1) or a CIDR range (192.0.2.0/24)` });
  });
  if (s.schema?.enabled && s.schema.document === undefined) {
    out.push({ path: "/schema/document", message: 'add the JSON Schema to check bodies against, for example {"type":"object","required":["id"]}' });
  }
  if (s.schema?.document !== undefined && (body.schema?.document !== undefined || body.schema?.enabled)) out.push(...rules.checkSchema(s.schema.document));
  const patterns = s.redaction.patterns ?? [];
  if (s.redaction.enabled && patterns.length === 0) out.push({ path: "/redaction/patterns", message: "add at least one pattern when redaction is enabled" });
  for (const { index, message } of rules.checkPatterns(patterns)) out.push({ path: `/redaction/patterns/${index}`, message });
  if (s.response.mode === "workflow" && s.workflow.kind === "none") {
    out.push({ path: "/response/mode", message: 'the workflow response mode needs a workflow that answers (kind "http", "command" or "script")' });
  }
  return out;
}
