import type { PluginRegistry } from "../plugins/registry.ts";
import type { ProviderFetch } from "../plugins/provider_fetch.ts";
import { ProviderUnavailable } from "../plugins/provider_errors.ts";
import { type ActivityOutcome } from "../records/activity.ts";
import { type DirectSlot, type RunRecord } from "../records/run.ts";
import { StoreUnavailable } from "../store/errors.ts";
import { XmlParserBusy } from "./xml_thread.ts";
import type { IngestLog } from "../store/ingest_log.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import type { TriggerService } from "../triggers/service.ts";
import { activityRow } from "./activity.ts";
import { admit, notAUrlCheck } from "./admit.ts";
import { appProtocol } from "./app_protocol.ts";
import type { Arrival } from "./arrival.ts";
import { screen } from "./screen.ts";
import { authenticateRequest, type Verified } from "./authenticate.ts";
import { readBody } from "./receive_body.ts";
import { deduplicate } from "./deduplicate.ts";
import type { Delivery } from "./delivery.ts";
import { Ending } from "./ending.ts";
import { genericProtocol } from "./generic_protocol.ts";
import { answerHandshake } from "./handshake.ts";
import { noted, reportOnlyNote, type ReportOnlyMarks } from "./report_only.ts";
import { refuseUnverifiedHandshake } from "./unverified_handshake.ts";
import { checkSchema } from "./check_schema.ts";
import { checkSource } from "./sources.ts";
import { formatAddress } from "../net/client_address.ts";
import { parse, ParsedBody } from "./parse.ts";
import type { MultipartFile } from "./parse_multipart.ts";
import { headersObject, queryObject } from "./literal_fields.ts";
import type { RateLimiter } from "./rate_limit.ts";
import type { SenderProtocol } from "./sender_protocol.ts";
import { orderingKeysOf } from "./ordering_key.ts";
import { recordFiltered, recordRun } from "./record.ts";
import { destinationsOf, respondingDestination } from "../records/destination.ts";
import { RefusalTally, writeActivity } from "./refusal_tally.ts";
import { ack, ERRORS, failure, UNAVAILABLE_RETRY_AFTER } from "../net/answers.ts";
import { duplicateAck } from "./duplicate_ack.ts";
import { isOverload, isSandboxFailure } from "../checks/check_failures.ts";
import type { ChecksCompiler, PreparedChecks } from "../checks/prepared_checks.ts";

/** What the pipeline needs of the store: a dedup read, the grouped commit, lone Activity rows and counted refusals. */
export type IngestStore = IngestLog;

/** What the pipeline needs from the rest of the server. */
export interface IngestDeps {
  triggers: Pick<TriggerService, "findByToken" | "adoptAppSecret">;
  store: IngestStore;
  plugins: Pick<PluginRegistry, "get">;
  compileChecks: ChecksCompiler;
  maxBodyBytes: number;
  /** The public base URL (`--base-url`): plugins sign URLs built from it, never from `Host`. */
  baseUrl(): string;
  /** Where plugins fetch their providers' keys from (`--provider-fetch-allow`); default: the providers' own hosts only. */
  providerFetch?: ProviderFetch;
  rateLimiter?: RateLimiter;
  /** The caller's address (peer, or per --trusted-proxies X-Forwarded-For); null when unknown. */
  callerAddress?(request: Request): Uint8Array | null;
  /** Workflow response mode: waits for the run's result and returns the workflow's response. */
  workflowResponse?(trigger: TriggerRecord, run: RunRecord & { trigger: unknown }, requestId: string): Promise<Response>;
  /** Called once a run is durably committed (the run queue picks it up), with the direct slot taken for it, if any. */
  onRunCommitted?(trigger: TriggerRecord, run: RunRecord, lease: DirectSlot | null): void;
  /** Whether a destination is paused: a paused responding destination's caller gets the plain acknowledgement. */
  destinationPaused?(triggerId: string, destination: string): boolean;
  /** A slot of this instance's for a waiting caller's run (workflow response mode), or null; see {@link DirectSlot}. */
  directSlot?(trigger: TriggerRecord): DirectSlot | null;
  /** Where an unexpected failure's stack goes (the caller gets an opaque 500, the owner an `error` row). */
  log?(level: "error", message: string, fields: Record<string, unknown>): void;
  now?(): Date;
}

/** How a request ended, for the log line and metrics. */
export interface IngestResult {
  response: Response;
  triggerId: string | null;
  outcome: ActivityOutcome | "not_found";
  /** It failed authentication: refused (`enforce`), or accepted anyway by a trigger whose authentication only reports (`report`). */
  authFailure?: "enforce" | "report";
}

/** A trigger version's compiled checks and protocol, built once and reused for every request. */
interface PreparedTrigger {
  checks: PreparedChecks;
  protocol: SenderProtocol;
}

/**
 * The life of one request to `/webhooks/<token>`, in the processing order of docs/processing-order.md:
 * sources → method and rate → body size → authentication → deduplication → parse → schema → filter →
 * redaction → run. Each step is a stage of its own file that either hands its output on or ends the request;
 * the request's one Activity row is written when it ends.
 */
export class IngestPipeline {
  private readonly prepared = new WeakMap<TriggerRecord, PreparedTrigger>();
  /** Refused requests per trigger, outcome and minute: past the first ones, counted rather than a row each. */
  private readonly refusals = new RefusalTally();

  constructor(private readonly deps: IngestDeps) {}

  async handle(request: Request, token: string, query: string): Promise<IngestResult> {
    const requestId = crypto.randomUUID();
    const trigger = this.deps.triggers.findByToken(token);
    if (!trigger) return { response: failure(404, ERRORS.notFound, requestId), triggerId: null, outcome: "not_found" };
    const now = this.deps.now?.() ?? new Date();
    const arrival: Arrival = { trigger, requestId, now, method: request.method.toUpperCase(), headers: request.headers, query, request, reportOnly: {} };
    try {
      return await this.close(arrival, await this.receive(arrival));
    } catch (error) {
      return this.close(arrival, failed(requestId, error, this.deps.log));
    }
  }

  /** The processing order up to deduplication; then {@link deliver}. */
  private async receive(arrival: Arrival): Promise<Ending> {
    const prepared = this.prepare(arrival.trigger);
    if (!prepared) return pluginMissing(arrival.trigger, arrival.requestId);
    const { protocol } = prepared;

    const outsider = checkSource(arrival, () => this.deps.callerAddress?.(arrival.request) ?? null);
    if (outsider) return outsider;

    const refused = admit(protocol, arrival, this.deps.rateLimiter);
    if (refused) return refused;

    const rawBody = await readBody(arrival, arrival.trigger.maxBodyBytes ?? this.deps.maxBodyBytes);
    if (rawBody instanceof Ending) return rawBody;

    if (protocol.checkOnlyMethods.includes(arrival.method)) {
      const spared = await refuseUnverifiedHandshake(protocol, arrival, rawBody);
      if (spared) return spared;
      return (
        (await answerHandshake(protocol, arrival, rawBody, this.deps.triggers, () => this.callerOf(arrival))) ??
        notAUrlCheck(arrival, arrival.trigger.app ?? "the app")
      );
    }

    const verified = await authenticateRequest(protocol, arrival, rawBody);
    if (verified instanceof Ending) return verified;

    // A POST handshake is answered only once verified (a protocol admits an unsigned one only where
    // the provider sends it so), and never to a request a report-only check let through.
    const spared = await refuseUnverifiedHandshake(protocol, arrival, rawBody);
    if (spared) return spared;
    const handshake = await answerHandshake(protocol, arrival, rawBody, this.deps.triggers, () => this.callerOf(arrival));
    if (handshake) return handshake;
    // A method only a handshake may use (CloudEvents' OPTIONS), verified, but not one: 405.
    if (protocol.verifiedCheckOnlyMethods.includes(arrival.method)) return notAUrlCheck(arrival, arrival.trigger.app ?? "the app");

    const body = new ParsedBody(verified);
    // A large XML body goes to the parser thread when a dedup key is read from it (the protocol
    // waits for it); otherwise only once it is known not to be a duplicate (never parsed then).
    const deduplicated = await deduplicate(protocol, verified, body, this.deps.store);
    if (deduplicated instanceof Ending) return deduplicated;

    await body.ready();
    const parsed = parse(body, arrival.requestId);
    if (parsed instanceof Ending) return parsed;
    // What the provider encodes inside its body (Pub/Sub's message.data) is decoded before the
    // schema, the filter and redaction look at it.
    if (protocol.decodeBody) body.replaceValue(protocol.decodeBody(verified, parsed.value, prepared.checks.redact !== undefined));

    const nonConforming = prepared.checks.schema ? await checkSchema(prepared.checks, arrival, body.valueForSchema(), deduplicated.claim, this.deps) : null;
    if (nonConforming) return nonConforming;

    // The body's text as received is stored instead of serializing the body again while nothing
    // changed it (see `triggerJson`: a redacted body is serialized). An app trigger's plugin sees the
    // parsed body (`event`) and could change it in place, so its body is always serialized. Under
    // redaction the text is taken only when it hides nothing: a duplicate name's shadowed value
    // (`{"u":{"password":"…"},"u":1}`) is in the text but never seen by redaction.
    const bodyJson = arrival.trigger.app !== null ? null : prepared.checks.redact ? body.jsonTextHidingNothing() : body.jsonText();
    const ending = await this.deliver({ ...this.deliveryOf(verified, protocol, body.value(), bodyJson, deduplicated.claim), ...filesOf(body) });
    const { trigger } = arrival;
    // The responding destination's run authors the answer; when its filter did not choose it, the plain acknowledgement.
    const responder = respondingDestination(trigger)?.name;
    const responds = ending.run?.destination === responder && !(responder && this.deps.destinationPaused?.(trigger.id, responder));
    if (ending.run && responds && trigger.response.mode === "workflow" && this.deps.workflowResponse) {
      return ending.answeredBy(await this.deps.workflowResponse(trigger, ending.run as RunRecord & { trigger: unknown }, arrival.requestId));
    }
    return ending;
  }

  /**
   * The processing order after deduplication: filter → redaction → run. A live request arrives
   * here from {@link handle}; a replay enters here directly, with `filter: "skip"` to bypass the
   * current filter. A filtered request keeps its redacted `$trigger` on its Activity row (for
   * replay). Resolves once the outcome is durable; the run, if any, is on the queue.
   */
  async deliver(delivery: Delivery, options: { filter?: "apply" | "skip"; destinations?: readonly string[] } = {}): Promise<Ending> {
    const prepared = this.prepare(delivery.trigger);
    if (!prepared) return pluginMissing(delivery.trigger, delivery.requestId);
    const { checks } = prepared;
    const { trigger, requestId } = delivery;

    const { filteredOut, body, query, headers } = await screen(checks, delivery, options.filter === "skip");
    const screened = query === delivery.query && headers === delivery.headers ? delivery : { ...delivery, query, headers };
    if (filteredOut) {
      const duplicate = await recordFiltered(this.deps, screened, filteredOut, body);
      return duplicate ? Ending.committed("deduplicated", duplicateAck(trigger, requestId)) : Ending.committed("filtered", ack(requestId));
    }

    // Each destination's own filter chooses whether it gets a run (README "Destinations").
    // A replay of a run goes to that run's destination only (and a bulk replay to those it names).
    const only = options.destinations;
    const chosen = (await destinationsFor(checks, trigger, body)).filter((d) => !only || only.includes(d.name));
    if (chosen.length === 0) {
      const duplicate = await recordFiltered(this.deps, screened, NO_DESTINATION, body);
      return duplicate ? Ending.committed("deduplicated", duplicateAck(trigger, requestId)) : Ending.committed("filtered", ack(requestId));
    }
    const route = { destinations: chosen, orderingKeys: await orderingKeysOf(checks, body) };
    const { run, runs, duplicate, slot } = await recordRun(this.deps, screened, body, null, route);
    if (duplicate) return Ending.committed("deduplicated", duplicateAck(trigger, requestId));
    if (this.deps.onRunCommitted) runs.forEach((r, i) => this.deps.onRunCommitted!(trigger, r, i === 0 ? slot : null));
    else slot?.release();
    return Ending.committed("run", ack(requestId), run);
  }

  private deliveryOf(verified: Verified, protocol: SenderProtocol, body: unknown, bodyJson: string | null, claim: Delivery["claim"]): Delivery {
    const { trigger, requestId, now, method, query, reportOnly } = verified.arrival;
    return {
      trigger,
      requestId,
      now,
      receivedAt: now.toISOString(),
      method,
      headers: headersObject(verified.headers, protocol.credentialHeaders),
      query: queryObject(query, protocol.credentialQuery),
      body,
      bodyJson,
      app: protocol.app(verified, body),
      claim,
      replayOf: null,
      ...(reportOnly.auth || reportOnly.sources ? { reportOnly: { ...reportOnly } } : {}),
    };
  }

  /** The caller's address as people write it (peer, or per --trusted-proxies X-Forwarded-For), for Activity. */
  private callerOf(arrival: Arrival): string {
    const address = this.deps.callerAddress?.(arrival.request) ?? null;
    return address ? formatAddress(address) : "an unknown address";
  }

  /** The trigger version's checks and protocol (compiled once); null when its plugin is not loaded here. */
  private prepare(trigger: TriggerRecord): PreparedTrigger | null {
    let prepared = this.prepared.get(trigger);
    if (!prepared) {
      const plugin = trigger.app ? this.deps.plugins.get(trigger.app) : undefined;
      if (trigger.app && !plugin) return null;
      const checks = this.deps.compileChecks(trigger);
      const protocol: SenderProtocol = plugin
        ? appProtocol(trigger, plugin, () => this.deps.baseUrl(), this.deps.providerFetch)
        : genericProtocol(trigger, checks);
      prepared = { checks, protocol };
      this.prepared.set(trigger, prepared);
    }
    return prepared;
  }

  /**
   * A request to `token` that the HTTP edge refused before any route ran (414, 431;
   * docs/api.md#edge-refusals) with `refused`: when the token is a trigger's, it ends like any
   * other request, with its one `rejected` Activity row under the answer's request id. Returns the
   * trigger's id, or null for an unknown token.
   */
  recordEdgeRefusal(token: string, refused: Response, reason: string): string | null {
    const trigger = this.deps.triggers.findByToken(token);
    if (!trigger) return null;
    const request = { trigger, requestId: refused.headers.get("x-request-id")!, now: this.deps.now?.() ?? new Date() };
    void this.close(request, Ending.stop("rejected", `refused before routing: ${reason}`, refused));
    return trigger.id;
  }

  /**
   * Ends a request: its one Activity row (unless already committed with its outcome), then the
   * answer. A refusal past its minute's own rows is counted on a shared row instead (the answer is
   * the same). The row of a request a report-only check let through starts with what it failed.
   */
  private async close(arrival: Pick<Arrival, "trigger" | "requestId" | "now"> & { reportOnly?: ReportOnlyMarks }, ending: Ending): Promise<IngestResult> {
    if (!ending.recorded) {
      const detail = noted(reportOnlyNote(arrival.reportOnly), ending.detail);
      const row = activityRow({ triggerId: arrival.trigger.id, requestId: arrival.requestId, now: arrival.now }, ending.outcome, detail, null);
      const written = writeActivity(this.deps.store, this.refusals, row);
      if (ending.durable) await written;
      else written.catch(() => {});
    }
    const authFailure = ending.outcome === "auth_failed" ? "enforce" : arrival.reportOnly?.auth?.verified === false ? "report" : undefined;
    return { response: ending.response, triggerId: arrival.trigger.id, outcome: ending.outcome, ...(authFailure ? { authFailure } : {}) };
  }
}

/** `$trigger.files` where the body was multipart; nothing for other bodies (the key is absent then). */
function filesOf(body: ParsedBody): { files?: MultipartFile[] } {
  const files = body.files();
  return files ? { files } : {};
}

/** The Activity detail of a request no destination's filter chose. */
const NO_DESTINATION = "no destination selected";

/** The destinations whose own filter selects the redacted body (all, where none has a filter). */
async function destinationsFor(checks: PreparedChecks, trigger: TriggerRecord, redactedBody: unknown) {
  const all = destinationsOf(trigger);
  if (!checks.route) return all;
  const names = new Set(await checks.route(redactedBody));
  return all.filter((d) => names.has(d.name));
}

function pluginMissing(trigger: TriggerRecord, requestId: string): Ending {
  return Ending.stop("error", `plugin ${trigger.app} is not loaded in this instance`, failure(500, ERRORS.preExecution, requestId));
}

/** A request the store, the sandbox, a provider's key host or a bug did not let finish: 503 (retry later) or an opaque 500, in the contract's shape. */
function failed(requestId: string, error: unknown, log: IngestDeps["log"]): Ending {
  if (error instanceof ProviderUnavailable) {
    // Neither verified nor refused: the provider retries after the wait its URL is left alone for.
    const retryAfter = String(error.retryAfterSeconds);
    return Ending.stop(
      "error",
      `provider host ${error.host} unavailable: ${error.message}`,
      failure(503, ERRORS.unavailable, requestId, { "Retry-After": retryAfter }),
    );
  }
  if (error instanceof StoreUnavailable) {
    return Ending.stop(
      "error",
      `storage unavailable: ${error.message}`,
      failure(503, ERRORS.unavailable, requestId, { "Retry-After": UNAVAILABLE_RETRY_AFTER }),
    );
  }
  if (error instanceof XmlParserBusy) {
    return Ending.stop("error", `XML parser busy: ${error.message}`, failure(503, ERRORS.unavailable, requestId, { "Retry-After": UNAVAILABLE_RETRY_AFTER }));
  }
  if (isOverload(error)) {
    return Ending.stop(
      "error",
      `overloaded: ${(error as Error).message}`,
      failure(503, ERRORS.unavailable, requestId, { "Retry-After": UNAVAILABLE_RETRY_AFTER }),
    );
  }
  if (isSandboxFailure(error)) {
    return Ending.stop("error", `pre-execution check failed: ${(error as Error).message}`, failure(500, ERRORS.preExecution, requestId));
  }
  log?.("error", "unexpected failure while receiving a webhook", { requestId, error: (error as Error)?.stack ?? String(error) });
  return Ending.stop("error", `internal error: ${(error as Error)?.message ?? String(error)}`, failure(500, ERRORS.internal, requestId));
}
