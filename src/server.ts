import { join } from "node:path";
import { Elysia } from "elysia";
import { BUILTIN_PLUGINS } from "../plugins/builtin.ts";
import { ensureAdminToken } from "./auth/admin_token.ts";
import { SealedBox } from "./auth/sealed_box.ts";
import { usesGeneratedSecret } from "./auth/generic.ts";
import { KEY_FINGERPRINT_META } from "./records/meta_keys.ts";
import { publicBaseUrl, trustedProxyRanges, UsageError, type ServerConfig } from "./config/server_config.ts";
import { apiRoutes } from "./http/api.ts";
import { errorResponse } from "./http/errors.ts";
import { healthRoutes } from "./http/health.ts";
import { ingestRoute } from "./http/ingest_route.ts";
import { Metrics } from "./http/metrics.ts";
import { logEvent, RequestLog } from "./http/request_log.ts";
import { checkExpression } from "./checks/api_check.ts";
import { expressionRules } from "./checks/compile.ts";
import { CheckPool } from "./checks/pool.ts";
import { pooledChecks } from "./checks/pooled.ts";
import { checkPoolGauges } from "./http/check_pool_metrics.ts";
import { IngestPipeline } from "./ingest/pipeline.ts";
import { MAX_TRIGGER_BODY_BYTES } from "./records/trigger.ts";
import { explainDataDirError } from "./config/data_dir_error.ts";
import { refuseOversized, routable } from "./http/edge.ts";
import { clientAddress } from "./net/client_address.ts";
import { AlertMonitor } from "./alerts/monitor.ts";
import { Replay } from "./replay/replay.ts";
import { RateLimiter } from "./ingest/rate_limit.ts";
import { PluginRegistry } from "./plugins/registry.ts";
import { createRunners, RunQueue, workflowResponse } from "./runs/index.ts";
import { PostgresStore } from "./store/postgres/postgres_store.ts";
import { SqliteStore } from "./store/sqlite/sqlite_store.ts";
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
  const plugins = new PluginRegistry(BUILTIN_PLUGINS);
  if (config.pluginsDir) await plugins.loadDir(config.pluginsDir);
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

/** The embedded SQLite store in the data dir, or the PostgreSQL database of `--database-url` (migrated). */
export async function openStore(config: ServerConfig): Promise<Store> {
  // INLET_GROUP_COMMIT=0 is a benchmark knob (one transaction per request), not a setting.
  const groupCommit = process.env.INLET_GROUP_COMMIT !== "0";
  if (config.databaseUrl) return PostgresStore.open(config.databaseUrl, { groupCommit });
  return new SqliteStore(join(config.dataDir, "inlet.db"), { groupCommit });
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
  url: string;
  port: number;
  adminToken: string | null;
  core: Core;
  /** Stops accepting, finishes in-flight requests, flushes and closes the store. */
  stop(): Promise<void>;
  app: { handle(request: Request): Promise<Response> };
}

const SWEEP_EVERY_MS = 60_000;
/** On stop, how long executing runs may take to finish before they are put back in the queue. */
const RUN_DRAIN_MS = 5_000;

/** Starts `inlet serve`. */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const core = await openCore(config);
  const { store, triggers, plugins } = core;
  const admin = await ensureAdminToken(store, config.adminToken);
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
    onRunCommitted: (trigger, run) => queue.onCommitted(trigger, run),
    runLease: (trigger) => queue.leaseFor(trigger),
    workflowResponse: (trigger, run, requestId) => workflowResponse(queue, trigger, run, requestId),
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
  const app = new Elysia({ name: "inlet" })
    .onError(({ code, error }) => errorResponse(code, error))
    .use(ingestRoute(pipeline, metrics, log))
    .use(
      apiRoutes({
        triggers,
        store,
        plugins,
        adminTokenHash: () => admin.hash,
        baseUrl: () => baseUrl,
        check: checkExpression,
        replay: new Replay({ store, triggers, deliver: (delivery, options) => pipeline.deliver(delivery, options) }),
        onTriggerDeleted: (id) => metrics.forget(id),
      }),
    )
    .use(
      healthRoutes(store, metrics, () => ({ inlet_triggers: triggers.list().length }), () => [
        ...checkPoolGauges(checkPool.snapshot()),
        { name: "inlet_alert_firing", help: "1 while the trigger's alert rule of this kind fires, else 0.", values: {}, series: alerts.series() },
      ]),
    )
    .use(panelRoutes());

  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    // The pipeline enforces each trigger's limit itself while streaming (413); Bun's own bound
    // only has to let the largest allowed body (a trigger's maxBodyBytes, up to 100 MiB) through.
    maxRequestBodySize: Math.max(config.maxBodyBytes, MAX_TRIGGER_BODY_BYTES) + 1,
    // Only when set: passing Bun's own default explicitly makes a graceful stop wait that long for
    // connections whose body was refused unread.
    ...(config.idleTimeout ? { idleTimeout: config.idleTimeout } : {}),
    fetch: (request) => {
      const refused = refuseOversized(request);
      if (refused) return refused;
      const routed = routable(request);
      if (routed !== request) received.set(routed, request);
      return app.handle(routed);
    },
  });
  peerOf = (request) => server.requestIP(request)?.address ?? null;
  const port = server.port!;
  baseUrl = publicBaseUrl(config, port);

  const reload = () => triggers.refresh().catch((e) => logEvent("warn", "trigger refresh failed", { error: String(e) }));
  // Changes from other processes: announced at once where the store can (PostgreSQL NOTIFY), and
  // the revision is polled every second in any case (the CLI on a SQLite data dir; a missed NOTIFY).
  const watch = store.watchTriggers ? await store.watchTriggers(() => void reload()) : null;
  const refresh = setInterval(reload, 1000);
  const sweep = setInterval(() => {
    const now = new Date();
    store.sweep(now, new Date(now.getTime() - config.retentionDays * 86_400_000)).catch((e) => logEvent("warn", "sweep failed", { error: String(e) }));
  }, SWEEP_EVERY_MS);
  refresh.unref?.();
  sweep.unref?.();

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      clearInterval(refresh);
      clearInterval(sweep);
      await watch?.close();
      await server.stop(false);
      checkPool.close();
      await alerts.stop();
      await queue.stop(RUN_DRAIN_MS);
      await runners.close();
      log.close();
      await store.close();
    })());

  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return { url: `http://${host}:${port}`, port, adminToken: admin.generated, core, stop, app: { handle: (r) => app.handle(r) } };
}
