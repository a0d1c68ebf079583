import { authenticate, credentialHeaders } from "../auth/generic.ts";
import { appDedupKeyHash, dedupKeyHash } from "../dedup/dedup_key.ts";
import { authenticateAppRequest } from "../plugins/authenticate.ts";
import { pluginContext } from "../plugins/context.ts";
import type { PluginRegistry } from "../plugins/registry.ts";
import type { InletPlugin, PluginRequest } from "../plugins/types.ts";
import { StoreUnavailable, type ActivityOutcome, type ActivityRecord, type DedupClaim, type RunLease, type RunRecord, type Store } from "../store/types.ts";
import type { TriggerRecord } from "../triggers/schema.ts";
import type { TriggerService } from "../triggers/service.ts";
import { BodyTooLarge, readBodyLimited } from "./read_body.ts";
import { fieldsOf, InvalidBody, isJsonType, parseBody } from "./parse_body.ts";
import { ack, ERRORS, failure } from "./respond.ts";
import { isSandboxFailure, type ChecksCompiler, type PreparedChecks } from "./stages.ts";
import type { RateLimiter } from "./rate_limit.ts";

/** What the pipeline needs from the rest of the server. */
export interface IngestDeps {
  triggers: TriggerService;
  store: Store;
  plugins: PluginRegistry;
  compileChecks: ChecksCompiler;
  maxBodyBytes: number;
  /** The public base URL (`--base-url`): plugins sign URLs built from it, never from `Host`. */
  baseUrl(): string;
  rateLimiter?: RateLimiter;
  /** Workflow response mode: waits for the run's result and returns the workflow's response. */
  workflowResponse?(trigger: TriggerRecord, run: RunRecord & { trigger: unknown }, requestId: string): Promise<Response>;
  /** Called once a run is durably committed (the run queue picks it up). */
  onRunCommitted?(trigger: TriggerRecord, run: RunRecord): void;
  /** A lease to commit a run already held by this instance (workflow response mode), or null. */
  runLease?(trigger: TriggerRecord): RunLease | null;
  now?(): Date;
}

/** How a request ended, for the log line and metrics. */
export interface IngestResult {
  response: Response;
  triggerId: string | null;
  outcome: ActivityOutcome | "not_found";
}

const NO_STORE_RETRY = "5";

/** The whole life of one request to `/webhooks/<token>`: auth → dedup → parse → filter → redact → run. */
export class IngestPipeline {
  private readonly prepared = new WeakMap<TriggerRecord, PreparedChecks>();
  private readonly hiddenHeaders = new WeakMap<TriggerRecord, Set<string>>();

  constructor(private readonly deps: IngestDeps) {}

  private checksFor(trigger: TriggerRecord): PreparedChecks {
    let checks = this.prepared.get(trigger);
    if (!checks) {
      checks = this.deps.compileChecks(trigger);
      this.prepared.set(trigger, checks);
    }
    return checks;
  }

  /** Header names kept out of `$trigger`, worked out once per trigger version. */
  private credentialsOf(trigger: TriggerRecord, plugin: InletPlugin | undefined): Set<string> {
    let hidden = this.hiddenHeaders.get(trigger);
    if (!hidden) {
      hidden = new Set([...credentialHeaders(trigger.auth), ...(plugin?.credentialHeaders ?? [])]);
      this.hiddenHeaders.set(trigger, hidden);
    }
    return hidden;
  }

  async handle(request: Request, token: string, query: string): Promise<IngestResult> {
    const requestId = crypto.randomUUID();
    const trigger = this.deps.triggers.findByToken(token);
    if (!trigger) return { response: failure(404, ERRORS.notFound, requestId), triggerId: null, outcome: "not_found" };
    const now = this.deps.now?.() ?? new Date();
    const run = new RequestRun(this.deps, trigger, requestId, now);
    try {
      return await this.process(run, request, query);
    } catch (error) {
      if (error instanceof StoreUnavailable) {
        run.log("error", `storage unavailable: ${error.message}`, false);
        return run.end("error", failure(503, ERRORS.unavailable, requestId, { "Retry-After": NO_STORE_RETRY }));
      }
      if (isSandboxFailure(error)) {
        return run.finish("error", `pre-execution check failed: ${(error as Error).message}`, failure(500, ERRORS.preExecution, requestId));
      }
      throw error;
    }
  }

  private async process(r: RequestRun, request: Request, query: string): Promise<IngestResult> {
    const { trigger, requestId } = r;
    const plugin = trigger.app ? this.deps.plugins.get(trigger.app) : undefined;
    if (trigger.app && !plugin) return r.finish("error", `plugin ${trigger.app} is not loaded in this instance`, failure(500, ERRORS.preExecution, requestId));
    const method = request.method.toUpperCase();

    // 1. Method, rate, size.
    const allowed = plugin ? (plugin.handshake ? ["POST", "GET", "HEAD"] : ["POST"]) : trigger.methods;
    if (!allowed.includes(method)) {
      return r.finish("rejected", `method ${method} not accepted (accepts ${allowed.join(", ")})`, failure(405, ERRORS.method, requestId, { Allow: allowed.join(", ") }));
    }
    const limiter = this.deps.rateLimiter;
    if (limiter) {
      const wait = limiter.take(trigger.id, r.now.getTime());
      if (wait > 0) return r.finish("rejected", "rate limited", failure(429, ERRORS.rateLimited, requestId, { "Retry-After": String(Math.ceil(wait / 1000)) }));
    }
    let rawBody: Uint8Array;
    try {
      rawBody = await readBodyLimited(request, this.deps.maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLarge) return r.finish("rejected", error.message, failure(413, ERRORS.tooLarge, requestId));
      throw error;
    }
    const headers = request.headers;

    // 2. Authenticate, before anything is parsed or stored.
    const pluginRequest: PluginRequest | null = plugin ? { method, url: this.deps.baseUrl() + `/webhooks/${trigger.token}` + query, headers, rawBody } : null;
    const ctx = plugin ? pluginContext(trigger.appSecret ?? trigger.secret ?? "", r.now) : null;
    if (plugin && (method === "GET" || method === "HEAD")) {
      // GET/HEAD URL checks (Dropbox, Mailchimp, Mandrill) are unsigned by the providers.
      return (
        (await this.handshake(r, plugin, pluginRequest!, ctx!)) ??
        r.finish("rejected", `${method} is only for ${plugin.name}'s URL check, and this request is not one`, failure(405, ERRORS.method, requestId, { Allow: "POST" }))
      );
    }
    const auth = plugin ? await authenticateAppRequest(plugin, pluginRequest!, ctx!) : authenticate(trigger.auth, trigger.secret, headers, rawBody);
    if (!auth.ok) return r.finish("auth_failed", auth.reason, failure(401, ERRORS.auth, requestId));
    // A POST handshake is answered only once verified (a plugin's verify() admits an unsigned one only where the provider sends it so).
    if (plugin?.handshake) {
      const answered = await this.handshake(r, plugin, pluginRequest!, ctx!);
      if (answered) return answered;
    }

    // 3. Deduplicate, before parsing (event-id and expression keys read the body lazily).
    const contentType = method === "GET" ? null : headers.get("content-type");
    let parsed: { value: unknown } | null = null;
    const parse = (): unknown => {
      if (!parsed) parsed = { value: method === "GET" ? fieldsOf(new URLSearchParams(query)) : parseBody(rawBody, contentType) };
      return parsed.value;
    };
    const checks = this.checksFor(trigger);
    let claim: DedupClaim | null = null;
    if (plugin) {
      const deliveryId = safeCall(() => plugin.deliveryId?.(pluginRequest!, ctx!) ?? null);
      const key = appDedupKeyHash(deliveryId, rawBody);
      const window = key.byContent ? plugin.contentDedupWindowSeconds : (plugin.dedupWindowSeconds ?? 86400);
      if (window) claim = { keyHash: key.hash, windowSeconds: window };
      r.app = { id: plugin.id, event: null, deliveryId };
    } else if (trigger.dedup.strategy !== "disabled") {
      const bodyForKey = () => {
        try {
          return parse();
        } catch {
          return undefined;
        }
      };
      const hash = dedupKeyHash(trigger.dedup, { headers, rawBody, body: bodyForKey }, checks.select);
      if (hash) claim = { keyHash: hash, windowSeconds: trigger.dedup.windowSeconds ?? 3600 };
    }
    if (claim && (await this.deps.store.hasDedupKey(trigger.id, claim.keyHash, r.now))) {
      return r.finish("deduplicated", null, this.duplicateAck(trigger, requestId), true);
    }

    // 4. Parse.
    let body: unknown;
    try {
      body = parse();
    } catch (error) {
      if (error instanceof InvalidBody) return r.finish("rejected", error.message, failure(400, ERRORS.invalidJson, requestId), true);
      throw error;
    }
    if (r.app && plugin?.event) r.app.event = safeCall(() => plugin.event!(pluginRequest!, body) ?? null);

    // 5. Filter.
    if (checks.passes && !checks.passes(body)) {
      const committed = await r.commit(claim, null, "filtered", `filter (${trigger.filter.mode}) ${trigger.filter.mode === "include" ? "did not match" : "matched"}`);
      return r.end(committed ? "deduplicated" : "filtered", committed ? this.duplicateAck(trigger, requestId) : ack(requestId));
    }

    // 6. Redact, then 7. record the run and answer.
    const redacted = checks.redact ? checks.redact(body) : body;
    const hidden = this.credentialsOf(trigger, plugin);
    const $trigger = {
      body: redacted,
      headers: headersObject(headers, hidden),
      query: fieldsOf(new URLSearchParams(query)),
      method,
      receivedAt: r.now.toISOString(),
      requestId,
      triggerId: trigger.id,
      app: r.app,
    };
    const immediate = trigger.workflow.kind === "none";
    const lease = immediate ? null : (this.deps.runLease?.(trigger) ?? null);
    const runRecord: RunRecord & { trigger: unknown } = {
      id: Bun.randomUUIDv7(),
      triggerId: trigger.id,
      requestId,
      status: immediate ? "succeeded" : lease ? "running" : "queued",
      trigger: $trigger,
      result: null,
      attempts: immediate ? 1 : 0,
      error: null,
      createdAt: r.now.toISOString(),
      finishedAt: immediate ? r.now.toISOString() : null,
    };
    const duplicate = await r.commit(claim, runRecord, "run", null, lease);
    if (duplicate) return r.end("deduplicated", this.duplicateAck(trigger, requestId));
    this.deps.onRunCommitted?.(trigger, runRecord);
    if (trigger.response.mode === "workflow" && this.deps.workflowResponse) {
      return r.end("run", await this.deps.workflowResponse(trigger, runRecord, requestId));
    }
    return r.end("run", ack(requestId));
  }

  private duplicateAck(trigger: TriggerRecord, requestId: string): Response {
    return trigger.response.mode === "workflow" ? ack(requestId, { "X-Service-Deduplicated": "true" }) : ack(requestId);
  }

  /** Asks the plugin for a handshake answer; `null` when the request is not a handshake. */
  private async handshake(r: RequestRun, plugin: InletPlugin, req: PluginRequest, ctx: ReturnType<typeof pluginContext>): Promise<IngestResult | null> {
    let answer: Awaited<ReturnType<NonNullable<InletPlugin["handshake"]>>> = null;
    try {
      answer = (await plugin.handshake?.(req, ctx)) ?? null;
    } catch (error) {
      return r.finish("auth_failed", `${plugin.id} handshake threw: ${(error as Error).message}`, failure(401, ERRORS.auth, r.requestId));
    }
    if (answer === null) return null;
    const response = answer instanceof Response ? answer : answer.response;
    let detail = `${plugin.name} URL-verification handshake answered; no run`;
    if (!(answer instanceof Response) && answer.adoptSecret) {
      const adopted = await this.deps.triggers.adoptAppSecret(r.trigger.id, answer.adoptSecret);
      detail += adopted ? "; the provider's secret was stored" : "; a secret is already set, the offered one was ignored";
    }
    response.headers.set("X-Request-Id", r.requestId);
    return r.finish("filtered", detail, response);
  }
}

function safeCall<T>(fn: () => T): T | null {
  try {
    return fn();
  } catch {
    return null;
  }
}

function headersObject(headers: Headers, hidden: Set<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) if (!hidden.has(name)) out[name] = value;
  return out;
}

/** One request's bookkeeping: its Activity row, exactly once. */
class RequestRun {
  app: { id: string; event: string | null; deliveryId: string | null } | null = null;

  constructor(
    private readonly deps: IngestDeps,
    readonly trigger: TriggerRecord,
    readonly requestId: string,
    readonly now: Date,
  ) {}

  private activity(outcome: ActivityOutcome, detail: string | null, runId: string | null): ActivityRecord {
    return { id: Bun.randomUUIDv7(), triggerId: this.trigger.id, at: this.now.toISOString(), requestId: this.requestId, outcome, runId, detail };
  }

  /** Writes the Activity row; waits for it unless the outcome is a cheap rejection (flood-safe). */
  async log(outcome: ActivityOutcome, detail: string | null, wait: boolean): Promise<void> {
    const written = this.deps.store.recordActivity(this.activity(outcome, detail, null));
    if (wait) await written;
    else written.catch(() => {});
  }

  /** Commits key + run (or filtered row) + Activity together; true when it turned out to be a duplicate. */
  async commit(
    claim: DedupClaim | null,
    run: (RunRecord & { trigger: unknown }) | null,
    outcome: ActivityOutcome,
    detail: string | null,
    lease: RunLease | null = null,
  ): Promise<boolean> {
    const result = await this.deps.store.commitIngest({ dedup: claim, run, activity: this.activity(outcome, detail, run?.id ?? null), lease });
    return result.deduplicated;
  }

  async finish(outcome: ActivityOutcome, detail: string | null, response: Response, wait = false): Promise<IngestResult> {
    await this.log(outcome, detail, wait);
    return this.end(outcome, response);
  }

  end(outcome: ActivityOutcome, response: Response): IngestResult {
    return { response, triggerId: this.trigger.id, outcome };
  }
}
