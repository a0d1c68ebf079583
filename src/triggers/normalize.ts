import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { jwtRuleErrors } from "../auth/jwt_rules.ts";
import { parseCidr } from "../net/cidr.ts";
import { AlertRuleSchema } from "../records/alert.ts";
import { TriggerInputSchema, TriggerPatchSchema, type TriggerInput, type TriggerPatch } from "../records/trigger_schemas.ts";
import { WorkflowSchema, type WorkflowConfig } from "../records/workflow.ts";
import type {
  AuthConfig,
  DedupConfig,
  FilterConfig,
  Method,
  RedactionConfig,
  SourcesConfig,
  PayloadSchemaConfig,
  ResponseConfig,
  TriggerConfig,
} from "../records/trigger.ts";
import type { DestinationConfig } from "../records/destination.ts";
import type { Rollout } from "../records/rollout.ts";
import { rolloutErrors } from "./rollout_rules.ts";
import { schemaErrors, ValidationError, type ValidationDetail } from "./validation_error.ts";
import { PROVIDER_FETCH } from "../plugins/provider_fetch.ts";
import { appSettingsRules, type FetchRules, type SettingsOwner } from "./app_settings_rules.ts";
import { chosenDeliveries, deliveryShapeErrors } from "./deliveries.ts";
import { destinationErrors } from "./destination_rules.ts";
import { responseModeErrors } from "./response_rules.ts";
import { workflowErrors } from "./workflow_rules.ts";

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
   * `adoptsSecret`: its triggers are armed to adopt a secret from a handshake (trust on first
   * use); `secret.generated`: inlet generates its triggers' secret (see secret_policy.ts);
   * `settings`: what its triggers' `appSettings` may hold.
   */
  get(id: string): ({ adoptsSecret?: boolean; secret?: { generated: boolean } } & SettingsOwner) | undefined;
}

export interface NormalizeContext {
  rules: ExpressionRules;
  plugins: PluginCatalog;
  /** What plugin fetches may reach (`--provider-fetch-allow`), for settings that name a URL; default: the providers' own hosts. */
  fetchRules?: FetchRules;
  /** The trigger's public URL, for settings checks (a default audience); set per save by the trigger service. */
  triggerUrl?: string;
  /**
   * The settings are declared in a config file (README "Triggers as code"), not an edit: a
   * `reportUntil` already past is accepted (that window is over: the check enforces), so a file
   * stays valid, idempotent and exportable as time passes.
   */
  declared?: boolean;
}

/** The settings part of a trigger: everything but ids and times. */
export type TriggerSettings = Omit<TriggerConfig, "id" | "token" | "createdAt" | "updatedAt">;

function schemaCheck(value: unknown, patch: boolean): void {
  const check = patch ? patchCheck : inputCheck;
  if (check.Check(value)) return;
  let details = methodsAsOne(schemaErrors(check as never, value));
  const { workflow, destinations, alerts } = (value ?? {}) as { workflow?: unknown; destinations?: unknown; alerts?: unknown };
  details = byVariant(details, "/workflow", workflow, workflowVariants);
  if (Array.isArray(destinations)) {
    destinations.forEach(
      (d, i) => (details = byVariant(details, `/destinations/${i}/workflow`, (d as { workflow?: unknown } | null)?.workflow, workflowVariants)),
    );
  }
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
    ...rolloutOf(merged),
  };
}

/** A check's `mode`, and its `reportUntil` while in report mode (back to enforce, the date goes). */
function rolloutOf({ mode, reportUntil }: Rollout): Rollout {
  return { ...(mode !== undefined ? { mode } : {}), ...(mode === "report" && reportUntil !== undefined ? { reportUntil } : {}) };
}

/**
 * The allowed sources: a field the body gives replaces the current one (a list given replaces
 * the list, a mode alone keeps it). No entry left: any address may call, and the mode goes too.
 */
function mergeSources(current: SourcesConfig | undefined, given: Partial<SourcesConfig> | undefined): SourcesConfig | undefined {
  const merged = { ...current, ...given };
  const allow = (merged.allow ?? []).map((entry) => entry.trim());
  return allow.length > 0 ? { allow, ...rolloutOf(merged) } : undefined;
}

function mergeDedup(prev: DedupConfig | undefined, patch: Partial<DedupConfig> | undefined): DedupConfig {
  const merged = { strategy: "disabled", ...(prev ?? {}), ...(patch ?? {}) } as DedupConfig;
  // The window defaults to 3600 when deduplication is first enabled (docs/api.md#triggerinput-and-trigger).
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
 * rule of docs/api.md#rules-checked-on-save. Throws {@link ValidationError} listing each problem
 * with its path. `now`: when it is saved (a report-only window must end in the future).
 */
export function normalizeTrigger(input: unknown, context: NormalizeContext, current?: TriggerSettings, now = new Date()): TriggerSettings {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new ValidationError([{ path: "", message: "the body must be a JSON object" }]);
  }
  const shape = deliveryShapeErrors(input as Record<string, unknown>, current);
  if (shape.length) throw new ValidationError(shape);
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
    ...chosenDeliveries(body as { workflow?: WorkflowConfig; destinations?: DestinationConfig[] }, current),
    schema: { enabled: false, ...(current?.schema ?? {}), ...(body.schema ?? {}) } as PayloadSchemaConfig,
  };
  // null clears a per-trigger limit (back to the server's); absent keeps the current one.
  const maxBodyBytes = body.maxBodyBytes === undefined ? current?.maxBodyBytes : (body.maxBodyBytes ?? undefined);
  if (maxBodyBytes !== undefined) settings.maxBodyBytes = maxBodyBytes;
  const alerts = body.alerts ?? current?.alerts;
  if (alerts && alerts.length > 0) settings.alerts = alerts;
  const sources = mergeSources(current?.sources, body.sources);
  if (sources) settings.sources = sources;
  const details = ruleErrors(settings, body, context, now);
  const given = body.appSettings as Record<string, unknown> | undefined;
  const where = { triggerUrl: context.triggerUrl ?? "", fetchRules: context.fetchRules ?? PROVIDER_FETCH };
  const chosen = appSettingsRules(app, app === null ? undefined : context.plugins.get(app), given, current?.appSettings, where);
  if (chosen.appSettings) settings.appSettings = chosen.appSettings;
  details.push(...chosen.details);
  if (details.length) throw new ValidationError(details);
  return settings;
}

/**
 * Report-only rollouts (README "Report-only rollout"), on generic and app triggers alike: each
 * needs something to report on — an Authentication Type other than none (an app trigger has its
 * provider's recipe), allowed sources — and a `reportUntil` in the next 30 days.
 */
function reportOnlyErrors(s: TriggerSettings, body: TriggerPatch, now: Date, declared: boolean): ValidationDetail[] {
  const out = rolloutErrors("/auth", s.auth, body.auth, now, declared);
  if (s.auth.mode === "report" && s.app === null && s.auth.type === "none") {
    out.push({ path: "/auth/mode", message: "report mode needs an Authentication Type to report on: with none, every request is accepted already" });
  }
  if (body.sources?.mode === "report" && !s.sources) {
    out.push({ path: "/sources/mode", message: "report mode needs allowed sources to report on: add addresses or CIDR ranges to sources.allow" });
  } else out.push(...rolloutErrors("/sources", s.sources, body.sources, now, declared));
  return out;
}

/** Every rule of a save beyond the schema, each problem at its field's path. */
export function ruleErrors(s: TriggerSettings, body: TriggerPatch, { rules, plugins, declared }: NormalizeContext, now: Date): ValidationDetail[] {
  const out: ValidationDetail[] = [];
  if (s.name.trim() === "") out.push({ path: "/name", message: "must not be blank: a name people can tell the trigger by" });
  const hmac = s.auth.type === "hmac-sha256" || s.auth.type === "hmac-sha512";
  if (hmac && s.methods.length === 1 && s.methods[0] === "GET") {
    out.push({ path: "/auth/type", message: "HMAC types need a body to sign: not available when the trigger accepts only GET (use bearer or header)" });
  }
  if (s.auth.type === "jwt") out.push(...jwtRuleErrors(s.auth.jwt!));
  out.push(...reportOnlyErrors(s, body, now, declared === true));
  if (s.app !== null) {
    if (!plugins.has(s.app))
      out.push({ path: "/app", message: `no plugin ${JSON.stringify(s.app)} is loaded (loaded: ${plugins.ids().join(", ") || "none"})` });
    if (body.dedup !== undefined || s.dedup.strategy !== "disabled") {
      out.push({ path: "/dedup", message: "app triggers have no dedup settings: inlet collapses the provider's retries by its delivery id automatically" });
    }
    if (s.auth.type !== "none")
      out.push({ path: "/auth/type", message: "app triggers are authenticated by the provider's own recipe; leave auth.type as none" });
    if (s.methods.length !== 1 || s.methods[0] !== "POST")
      out.push({ path: "/methods", message: 'app triggers accept ["POST"] (GET and HEAD reach only the provider handshake)' });
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
  // The shorthand's workflow is checked at /workflow; a list's, at each destination's path.
  if (s.destinations) out.push(...destinationErrors(s.destinations, rules));
  else out.push(...workflowErrors(s.workflow, "/workflow", rules.checkQuery));
  if (s.filter.enabled || s.filter.expression) {
    if (!s.filter.expression) out.push({ path: "/filter/expression", message: 'is required when the filter is enabled (for example $.type == "order.paid")' });
    else {
      const problem = rules.checkFilter(s.filter.expression);
      if (problem) out.push({ path: "/filter/expression", message: problem });
    }
  }
  (s.sources?.allow ?? []).forEach((entry, i) => {
    const parsed = parseCidr(entry);
    if (!parsed.ok)
      out.push({ path: `/sources/allow/${i}`, message: `${parsed.reason}: write an address (203.0.113.7, 2001:db8::1) or a CIDR range (192.0.2.0/24)` });
  });
  if (s.schema?.enabled && s.schema.document === undefined) {
    out.push({ path: "/schema/document", message: 'add the JSON Schema to check bodies against, for example {"type":"object","required":["id"]}' });
  }
  if (s.schema?.document !== undefined && (body.schema?.document !== undefined || body.schema?.enabled)) out.push(...rules.checkSchema(s.schema.document));
  const patterns = s.redaction.patterns ?? [];
  if (s.redaction.enabled && patterns.length === 0) out.push({ path: "/redaction/patterns", message: "add at least one pattern when redaction is enabled" });
  for (const { index, message } of rules.checkPatterns(patterns)) out.push({ path: `/redaction/patterns/${index}`, message });
  out.push(...responseModeErrors(s));
  return out;
}
