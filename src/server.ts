import { join } from "node:path";
import { Elysia } from "elysia";
import { BUILTIN_PLUGINS } from "../plugins/builtin.ts";
import { ensureAdminToken } from "./auth/admin_token.ts";
import { SealedBox } from "./auth/sealed_box.ts";
import { publicBaseUrl, UsageError, type ServerConfig } from "./config/server_config.ts";
import { apiRoutes } from "./http/api.ts";
import { errorResponse } from "./http/errors.ts";
import { healthRoutes } from "./http/health.ts";
import { ingestRoute } from "./http/ingest_route.ts";
import { Metrics } from "./http/metrics.ts";
import { logEvent, RequestLog } from "./http/request_log.ts";
import { checkExpression, compileChecks, expressionRules } from "./ingest/checks.ts";
import { IngestPipeline } from "./ingest/pipeline.ts";
import { RateLimiter } from "./ingest/rate_limit.ts";
import { PluginRegistry } from "./plugins/registry.ts";
import { createRunners, RunQueue, workflowResponse } from "./runs/index.ts";
import { SqliteStore } from "./store/sqlite/sqlite_store.ts";
import type { Store } from "./store/types.ts";
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
  if (config.databaseUrl) {
    // Refuse rather than silently fall back to SQLite: several instances would each keep their own data.
    throw new UsageError("--database-url: the PostgreSQL store is not part of this build yet; run one instance on the embedded SQLite store");
  }
  const box = SealedBox.load(config.dataDir, config.secretKey);
  const plugins = new PluginRegistry(BUILTIN_PLUGINS);
  if (config.pluginsDir) await plugins.loadDir(config.pluginsDir);
  // INLET_GROUP_COMMIT=0 is a benchmark knob (one transaction per request), not a setting.
  const store: Store = new SqliteStore(join(config.dataDir, "inlet.db"), { groupCommit: process.env.INLET_GROUP_COMMIT !== "0" });
  const triggers = new TriggerService(store, box, { rules: expressionRules, plugins }, (s) =>
    s.app === null ? s.auth.type !== "none" : plugins.get(s.app)?.secret.generated === true,
  );
  await triggers.refresh(true);
  return { config, store, plugins, triggers, box };
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
  const queue = new RunQueue({ store, triggers, execute: runners.execute, concurrency: config.runConcurrency, log: logEvent });
  const pipeline = new IngestPipeline({
    triggers,
    store,
    plugins,
    compileChecks,
    maxBodyBytes: config.maxBodyBytes,
    baseUrl: () => baseUrl,
    rateLimiter: config.rateLimit > 0 ? new RateLimiter(config.rateLimit) : undefined,
    onRunCommitted: (trigger, run) => queue.onCommitted(trigger, run),
    workflowResponse: (trigger, run, requestId) => workflowResponse(queue, trigger, run, requestId),
  });
  await queue.start();
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
        onTriggerDeleted: (id) => metrics.forget(id),
      }),
    )
    .use(healthRoutes(store, metrics, () => ({ inlet_triggers: triggers.list().length })))
    .use(panelRoutes());

  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    // The pipeline enforces the configured limit itself (413); this only stops absurd uploads early.
    maxRequestBodySize: Math.max(config.maxBodyBytes * 2, 1024 * 1024 * 16),
    fetch: (request) => app.handle(request),
  });
  const port = server.port!;
  baseUrl = publicBaseUrl(config, port);

  const refresh = setInterval(() => triggers.refresh().catch((e) => logEvent("warn", "trigger refresh failed", { error: String(e) })), 1000);
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
      await server.stop(false);
      await queue.stop(RUN_DRAIN_MS);
      await runners.close();
      log.close();
      await store.close();
    })());

  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return { url: `http://${host}:${port}`, port, adminToken: admin.generated, core, stop, app: { handle: (r) => app.handle(r) } };
}
