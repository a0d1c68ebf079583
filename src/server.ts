import { join } from "node:path";
import { Elysia } from "elysia";
import { BUILTIN_PLUGINS } from "../plugins/builtin.ts";
import { adminTokenHashInForce, ensureAdminToken } from "./auth/admin_token.ts";
import { SealedBox } from "./auth/sealed_box.ts";
import { usesGeneratedSecret } from "./auth/generic.ts";
import { BASE_URL_META, KEY_FINGERPRINT_META } from "./records/meta_keys.ts";
import { hostPort, publicBaseUrl, trustedProxyRanges, UsageError, type ServerConfig } from "./config/server_config.ts";
import { apiRoutes } from "./http/api.ts";
import { errorResponse } from "./http/errors.ts";
import { healthRoutes } from "./http/health.ts";
import { metricsGuard } from "./http/metrics_access.ts";
import { edgeRefusalHandler, ingestHandler, webhookToken } from "./http/ingest_route.ts";
import { Metrics, triggerInfo } from "./http/metrics.ts";
import { logEvent, RequestLog } from "./http/request_log.ts";
import { checkExpression } from "./checks/api_check.ts";
import { expressionRules } from "./checks/compile.ts";
import { CheckPool } from "./checks/pool.ts";
import { pooledChecks } from "./checks/pooled.ts";
import { checkPoolGauges } from "./http/check_pool_metrics.ts";
import { IngestPipeline } from "./ingest/pipeline.ts";
import { MAX_TRIGGER_BODY_BYTES, type TriggerRecord } from "./records/trigger.ts";
import { explainDataDirError } from "./config/data_dir_error.ts";
import { localOnlyNote } from "./config/base_url.ts";
import { dataDirWarning } from "./config/open_data_dir.ts";
import { explainBindError } from "./config/bind_error.ts";
import { missingPluginWarnings } from "./plugins/missing.ts";
import { EDGE_REFUSALS, refuseOversized, routable } from "./http/edge.ts";
import { allowedMethods, methodNotAllowed } from "./http/method_not_allowed.ts";
import { withCacheControl } from "./http/cache_control.ts";
import { clientAddress } from "./net/client_address.ts";
import { AlertMonitor } from "./alerts/monitor.ts";
import { Replay } from "./replay/replay.ts";
import { RateLimiter } from "./ingest/rate_limit.ts";
import { PluginRegistry } from "./plugins/registry.ts";
import { createRunners, RunQueue, workflowResponse } from "./runs/index.ts";
import { PostgresStore } from "./store/postgres/postgres_store.ts";
import { SqliteStore, sqlitePathIn } from "./store/sqlite/sqlite_store.ts";
import { DataDirInUse, holdServeLock } from "./store/sqlite/serve_lock.ts";
import type { Database } from "bun:sqlite";
import type { Store } from "./store/store.ts";
import { TriggerService } from "./triggers/service.ts";
import { panelRoutes } from "./ui/routes.ts";

/** Everything a process needs to read and change triggers, shared by the server and the CLI. */
export interface Core {
  config: ServerConfig;
  store: Store;
  plugins: PluginRegistry;
  triggers: TriggerService;
  box: SealedBox;
}

/** Opens the store, the key, the plugins and the trigger index. */
export async function openCore(config: ServerConfig): Promise<Core> {
  let box: SealedBox;
  let store: Store;
  const plugins = await loadPlugins(config);
  try {
    box = SealedBox.load(config.dataDir, config.secretKey);
    store = await openStore(config);
  } catch (error) {
    throw explainDataDirError(error, config.dataDir);
  }
  try {
    await checkSecretKey(store, box, config);
  } catch (error) {
    await store.close();
    throw error;
  }
  const triggers = new TriggerService(store, box, { rules: expressionRules, plugins }, (s) =>
    s.app === null ? usesGeneratedSecret(s.auth) : plugins.get(s.app)?.secret.generated === true,
  );
  await triggers.refresh(true);
  return { config, store, plugins, triggers, box };
}

/** The built-in plugins and those of `--plugins-dir`. */
export async function loadPlugins(config: Pick<ServerConfig, "pluginsDir">): Promise<PluginRegistry> {
  const plugins = new PluginRegistry(BUILTIN_PLUGINS);
  if (config.pluginsDir) await plugins.loadDir(config.pluginsDir);
  return plugins;
}

/** The embedded SQLite store in the data dir, or the PostgreSQL database of `--database-url` (migrated). */
export async function openStore(config: ServerConfig): Promise<Store> {
  // INLET_GROUP_COMMIT=0 is a benchmark knob (one transaction per request), not a setting.
  const groupCommit = process.env.INLET_GROUP_COMMIT !== "0";
  if (config.databaseUrl) return PostgresStore.open(config.databaseUrl, { groupCommit });
  return new SqliteStore(sqlitePathIn(config.dataDir), { groupCommit });
}

/**
 * Every instance on one store must seal and open secrets with the same key. The first to start
 * records the key's fingerprint; one with another key refuses to start instead of failing on
 * every secret later.
 */
async function checkSecretKey(store: Store, box: SealedBox, config: ServerConfig): Promise<void> {
  const mine = box.fingerprint();
  if ((await store.setMetaIfAbsent(KEY_FINGERPRINT_META, mine)) === mine) return;
  const where = config.secretKey ? "INLET_SECRET_KEY" : `${join(config.dataDir, "secret.key")} (no INLET_SECRET_KEY set)`;
  throw new UsageError(
    `the secret key from ${where} is not the key this ${store.kind === "postgres" ? "database" : "data dir"}'s secrets were sealed with; ` +
      "give every instance the same INLET_SECRET_KEY (or restore the original secret.key)",
  );
}

export interface RunningServer {
  /** Where it listens. */
  url: string;
  /** What trigger URLs and curl commands are built from (`--base-url`, else `http://HOST:PORT`). */
  baseUrl: string;
  port: number;
  /** The admin token generated by this start (print it once), or null. */
  adminToken: string | null;
  /** Where the admin token in force comes from. */
  adminTokenFrom: "generated" | "env" | "store";
  /** Warnings for whoever started it: triggers whose plugin is not loaded, a base URL only this machine can call, a data dir open to others. */
  warnings: string[];
  core: Core;
  /** Stops accepting, finishes in-flight requests, flushes and closes the store. */
  stop(): Promise<void>;
  app: { handle(request: Request): Promise<Response> };
}

const SWEEP_EVERY_MS = 60_000;
/** How long a starting server waits for another on its data dir to let go of the serve lock. */
const SERVE_LOCK_WAIT_MS = 10_000;
/** On stop, how long executing runs may take to finish before they are put back in the queue. */
const RUN_DRAIN_MS = 5_000;

/**
 * Starts `inlet serve`. On a SQLite data dir it first takes the dir's serve lock (one server per
 * dir: see serve_lock.ts), before the store is opened or migrated, and lets go of it when the
 * server stops or fails to start.
 */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const lock = config.databaseUrl ? null : serveLockOf(config.dataDir);
  let held = lock !== null;
  const release = () => {
    if (held) lock!.close();
    held = false;
  };
  try {
    const running = await startServing(config);
    return {
      ...running,
      stop: async () => {
        try {
          await running.stop();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

function serveLockOf(dataDir: string): Database {
  const explain = (error: unknown) => (error instanceof DataDirInUse ? new UsageError(error.message) : explainDataDirError(error, dataDir));
  try {
    return holdServeLock(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirInUse)) throw explain(error);
  }
  // Up to 10 s: a restart that starts the new server while the old one still drains (runs get
  // 5 s to finish) waits for it, as it does for `migrate`'s instant of asking whether a server
  // runs. Said at once, so that a server started beside a running one by mistake does not sit
  // silent for those 10 s before its error.
  process.stderr.write(`note: another inlet serve holds the data dir ${dataDir}; waiting up to ${SERVE_LOCK_WAIT_MS / 1000} s for it to stop\n`);
  try {
    return holdServeLock(dataDir, SERVE_LOCK_WAIT_MS);
  } catch (error) {
    throw explain(error);
  }
}

async function startServing(config: ServerConfig): Promise<RunningServer> {
  const core = await openCore(config);
  const { store, triggers, plugins } = core;
  try {
    await store.beginServing?.();
  } catch (error) {
    await store.close();
    throw error;
  }
  // Known before the port is bound, so the token in force works from the first request; a
  // generated one is made only once the port is ours (below). Read again every second, so that
  // `inlet admin-token reset` takes effect without a restart.
  let adminHash = await adminTokenHashInForce(store, config.adminToken);
  let baseUrl = publicBaseUrl(config, config.port);
  const metrics = new Metrics();
  const log = new RequestLog(config.logRequests);
  const runners = createRunners({ scriptPool: { size: config.runConcurrency } });
  const queue = new RunQueue({
    store,
    triggers,
    execute: runners.execute,
    concurrency: config.runConcurrency,
    leaseMs: config.runLeaseSeconds * 1000,
    log: logEvent,
  });
  const checkPool = new CheckPool({ size: config.sandboxWorkers });
  // The request as Bun received it, where the edge re-addressed it (see `routable`): its socket's
  // peer address is asked of Bun only when a trigger's sources check needs it.
  const received = new WeakMap<Request, Request>();
  let peerOf: (request: Request) => string | null = () => null;
  const trusted = trustedProxyRanges(config);
  const pipeline = new IngestPipeline({
    triggers,
    store,
    plugins,
    compileChecks: pooledChecks(checkPool),
    callerAddress: (request) => clientAddress(peerOf(received.get(request) ?? request), request.headers.get("x-forwarded-for"), trusted),
    maxBodyBytes: config.maxBodyBytes,
    baseUrl: () => baseUrl,
    rateLimiter: config.rateLimit > 0 ? new RateLimiter(config.rateLimit) : undefined,
    onRunCommitted: (trigger, run, lease) => queue.onCommitted(trigger, run, lease),
    runLease: (trigger) => queue.leaseFor(trigger),
    workflowResponse: (trigger, run, requestId) => workflowResponse(queue, trigger, run, requestId),
    log: logEvent,
  });
  await queue.start();
  const alerts = new AlertMonitor({
    store,
    triggers,
    url: config.alertUrl,
    secret: config.alertSecret,
    intervalMs: config.alertInterval * 1000,
    owner: queue.owner,
    log: logEvent,
  });
  alerts.start();
  const ingest = ingestHandler(pipeline, metrics, log);
  const edgeRefused = edgeRefusalHandler(pipeline, metrics, log);
  // Set once every route is registered (below): which methods a path no route took answers to.
  let allowed: (path: string) => string[] = () => [];
  const app = new Elysia({ name: "inlet" })
    .onError(({ code, error, path }) => {
      const allow = code === "NOT_FOUND" ? allowed(path) : [];
      return allow.length > 0 ? methodNotAllowed(allow) : errorResponse(code, error);
    })
    .use(
      apiRoutes({
        triggers,
        store,
        plugins,
        adminTokenHash: () => adminHash,
        baseUrl: () => baseUrl,
        check: checkExpression,
        replay: new Replay({ store, triggers, deliver: (delivery, options) => pipeline.deliver(delivery, options) }),
        onTriggerDeleted: (id) => metrics.forget(id),
        maxBodyBytes: Math.max(config.maxBodyBytes, MAX_TRIGGER_BODY_BYTES),
        alerts: () => alerts.list(),
      }),
    )
    .use(
      healthRoutes(
        store,
        metrics,
        () => ({ inlet_triggers: triggers.list().length, ...store.memoryGauges?.() }),
        () => [
          ...checkPoolGauges(checkPool.snapshot()),
          triggerInfo(triggers.list()),
          { name: "inlet_alert_firing", help: "1 while the trigger's alert rule of this kind fires, else 0.", values: {}, series: alerts.series() },
        ],
        // With --metrics-token, /metrics asks for it or the admin token in force; else it is open.
        metricsGuard(config.metricsToken, () => adminHash),
      ),
    )
    .use(panelRoutes());
  allowed = allowedMethods(app.routes);

  const stopStarted = async () => {
    checkPool.close();
    await alerts.stop();
    await queue.stop(RUN_DRAIN_MS);
    await runners.close();
    log.close();
    await store.close();
  };
  /**
   * Every request, from the socket or in process: the edge's refusals, webhook calls straight to
   * the pipeline, the rest through the router. Answers under `/api/` and `/metrics` get their
   * `Cache-Control` here, whatever answered them (a route, the router's 404 or 405, an error).
   */
  const frontDoor = (request: Request): Response | Promise<Response> => {
    const refused = refuseOversized(request);
    if (refused) {
      const token = webhookToken(request.url);
      return token === null ? withCacheControl(request.url, refused) : edgeRefused(request, token, refused, EDGE_REFUSALS[refused.status]);
    }
    const routed = routable(request);
    if (routed !== request) received.set(routed, request);
    const token = webhookToken(routed.url);
    if (token !== null) return ingest(routed, token).catch((error) => errorResponse("UNKNOWN", error));
    return Promise.resolve(app.handle(routed))
      .catch((error) => errorResponse("UNKNOWN", error))
      .then((response) => withCacheControl(routed.url, response));
  };
  const listen = () =>
    Bun.serve({
      hostname: config.host,
      port: config.port,
      // No bound of Bun's own: it would answer a larger declared body with a bare 413 before any
      // inlet code runs (CONTRACT §6.6). The pipeline enforces each trigger's limit while streaming,
      // and the management API bounds what it reads (readJson, after the admin token).
      maxRequestBodySize: Number.MAX_SAFE_INTEGER,
      // Only when set: passing Bun's own default explicitly makes a graceful stop wait that long for
      // connections whose body was refused unread.
      ...(config.idleTimeout ? { idleTimeout: config.idleTimeout } : {}),
      fetch: frontDoor,
    });
  let server: ReturnType<typeof listen>;
  try {
    server = listen();
  } catch (error) {
    await stopStarted();
    throw explainBindError(error, config);
  }
  peerOf = (request) => server.requestIP(request)?.address ?? null;
  const port = server.port!;
  baseUrl = publicBaseUrl(config, port);
  let admin: Awaited<ReturnType<typeof ensureAdminToken>>;
  try {
    // Only now that the port is ours: a start that fails to bind must not store a token it never printed.
    admin = await ensureAdminToken(store, config.adminToken);
    adminHash = admin.hash;
    if ((await store.getMeta(BASE_URL_META)) !== baseUrl) await store.setMeta(BASE_URL_META, baseUrl);
  } catch (error) {
    await server.stop(true);
    await stopStarted();
    throw error;
  }
  const pluginMissing = (list: TriggerRecord[]) => missingPluginWarnings(list, (id) => plugins.has(id), config.pluginsDir);
  const warnings = pluginMissing(triggers.list()).map((message) => `warning: ${message}`);
  // Triggers already looked at for a missing plugin; later loads warn (in the log) about new ones only.
  const seen = new Set(triggers.list().map((t) => t.id));
  const note = localOnlyNote(baseUrl, config.baseUrl !== undefined);
  if (note) warnings.push(note);
  // The data dir holds the SQLite store, or (on PostgreSQL without INLET_SECRET_KEY) the key file.
  const openDir = !config.databaseUrl || !config.secretKey ? dataDirWarning(config.dataDir) : null;
  if (openDir) warnings.push(openDir);

  const reload = async () => {
    try {
      await triggers.refresh();
      // A reset takes effect here; INLET_ADMIN_TOKEN, when set, stays the token (CONTRACT §1).
      adminHash = (await adminTokenHashInForce(store, config.adminToken)) || adminHash;
    } catch (e) {
      logEvent("warn", "trigger refresh failed", { error: String(e) });
      return;
    }
    const fresh = triggers.list().filter((t) => !seen.has(t.id));
    for (const t of fresh) seen.add(t.id);
    for (const message of pluginMissing(fresh)) logEvent("warn", message);
  };
  // Changes from other processes: announced at once where the store can (PostgreSQL NOTIFY), and
  // the revision is polled every second in any case (the CLI on a SQLite data dir; a missed NOTIFY).
  const watch = store.watchTriggers ? await store.watchTriggers(() => void reload()) : null;
  const refresh = setInterval(reload, 1000);
  // One sweep at a time: a large backlog of expired rows can take longer than the interval.
  let sweeping = false;
  const sweepNow = () => {
    if (sweeping) return;
    sweeping = true;
    const now = new Date();
    store
      .sweep(now, new Date(now.getTime() - config.retentionDays * 86_400_000))
      .catch((e) => logEvent("warn", "sweep failed", { error: String(e) }))
      .finally(() => (sweeping = false));
  };
  // At start too: a server restarted more often than the interval still keeps only its retention.
  sweepNow();
  const sweep = setInterval(sweepNow, SWEEP_EVERY_MS);
  refresh.unref?.();
  sweep.unref?.();

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      clearInterval(refresh);
      clearInterval(sweep);
      await watch?.close();
      await server.stop(false);
      await stopStarted();
    })());

  return {
    url: `http://${hostPort(config.host, port)}`,
    baseUrl,
    port,
    adminToken: admin.generated,
    adminTokenFrom: admin.generated ? "generated" : config.adminToken ? "env" : "store",
    warnings,
    core,
    stop,
    app: { handle: async (r) => frontDoor(r) },
  };
}
