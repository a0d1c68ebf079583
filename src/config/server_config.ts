import { availableParallelism } from "node:os";
import { Type, type Static } from "@sinclair/typebox";

/** Every server setting, with its flag and environment twin (README "Commands and flags"). */
export const ServerConfigSchema = Type.Object({
  host: Type.String({ minLength: 1 }),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  dataDir: Type.String({ minLength: 1 }),
  baseUrl: Type.Optional(Type.String({ pattern: "^https?://[^\\s]+$" })),
  pluginsDir: Type.Optional(Type.String({ minLength: 1 })),
  databaseUrl: Type.Optional(Type.String({ pattern: "^postgres(ql)?://" })),
  adminToken: Type.Optional(Type.String({ minLength: 16 })),
  secretKey: Type.Optional(Type.String({ minLength: 1 })),
  maxBodyBytes: Type.Integer({ minimum: 1, maximum: 64 * 1024 * 1024 }),
  rateLimit: Type.Integer({ minimum: 0 }),
  sandboxWorkers: Type.Integer({ minimum: 1, maximum: 64 }),
  trustedProxies: Type.Optional(Type.String()),
  providerFetchAllow: Type.Optional(Type.String()),
  metricsToken: Type.Optional(Type.String({ minLength: 16 })),
  alertUrl: Type.Optional(Type.String({ pattern: "^https?://[^\\s]+$" })),
  alertSecret: Type.Optional(Type.String()),
  alertInterval: Type.Integer({ minimum: 1, maximum: 5 }),
  idleTimeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 255 })),
  retentionDays: Type.Integer({ minimum: 1, maximum: 3650 }),
  runConcurrency: Type.Integer({ minimum: 1, maximum: 256 }),
  runLeaseSeconds: Type.Integer({ minimum: 2, maximum: 86_400 }),
  logRequests: Type.Boolean(),
  configFile: Type.Optional(Type.String({ minLength: 1 })),
  configWatch: Type.Boolean(),
});
export type ServerConfig = Static<typeof ServerConfigSchema>;

/** One settable option: its flag, env twin, kind, default and help line. */
export interface Option {
  key: keyof ServerConfig;
  flag: string;
  env: string;
  kind: "string" | "integer" | "boolean";
  help: string;
  fallback?: string | number | boolean;
  envOnly?: boolean;
  /** A credential: an error about its value never shows it. */
  credential?: boolean;
}

export const OPTIONS: Option[] = [
  { key: "host", flag: "--host", env: "INLET_HOST", kind: "string", fallback: "127.0.0.1", help: "interface to listen on" },
  { key: "port", flag: "--port", env: "INLET_PORT", kind: "integer", fallback: 8080, help: "port (0 = any free port; the chosen one is printed)" },
  { key: "dataDir", flag: "--data-dir", env: "INLET_DATA_DIR", kind: "string", fallback: "./inlet-data", help: "SQLite database and key file" },
  {
    key: "baseUrl",
    flag: "--base-url",
    env: "INLET_BASE_URL",
    kind: "string",
    help: "public URL used in trigger URLs and signed recipes (default http://HOST:PORT)",
  },
  { key: "pluginsDir", flag: "--plugins-dir", env: "INLET_PLUGINS_DIR", kind: "string", help: "extra app-trigger plugins (*.ts, *.js) loaded at start" },
  { key: "databaseUrl", flag: "--database-url", env: "INLET_DATABASE_URL", kind: "string", help: "postgres://… to share one PostgreSQL between instances" },
  {
    key: "maxBodyBytes",
    flag: "--max-body-bytes",
    env: "INLET_MAX_BODY_BYTES",
    kind: "integer",
    fallback: 1024 * 1024,
    help: "largest accepted request body (413 past it)",
  },
  {
    key: "alertUrl",
    flag: "--alert-url",
    env: "INLET_ALERT_URL",
    kind: "string",
    help: "where alert notifications are POSTed (a Slack incoming-webhook URL works as is)",
  },
  {
    key: "alertSecret",
    flag: "--alert-secret",
    env: "INLET_ALERT_SECRET",
    kind: "string",
    help: "Standard Webhooks secret (whsec_…) that signs alert notifications",
  },
  {
    key: "alertInterval",
    flag: "--alert-interval",
    env: "INLET_ALERT_INTERVAL",
    kind: "integer",
    fallback: 5,
    help: "seconds between alert evaluations (1 to 5)",
  },
  {
    key: "trustedProxies",
    flag: "--trusted-proxies",
    env: "INLET_TRUSTED_PROXIES",
    kind: "string",
    help: "CIDR,CIDR of proxies whose X-Forwarded-For names the caller (else the header is ignored)",
  },
  {
    key: "providerFetchAllow",
    flag: "--provider-fetch-allow",
    env: "INLET_PROVIDER_FETCH_ALLOW",
    kind: "string",
    help: "HOST:PORT,… plugins may also fetch provider keys and certificates from, over http or https (a mirror, a test double)",
  },
  {
    key: "metricsToken",
    flag: "--metrics-token",
    env: "INLET_METRICS_TOKEN",
    kind: "string",
    credential: true,
    help: "when set, /metrics requires it as a bearer token (the admin token works too); unset, /metrics is open",
  },
  {
    key: "sandboxWorkers",
    flag: "--sandbox-workers",
    env: "INLET_SANDBOX_WORKERS",
    kind: "integer",
    fallback: Math.max(2, availableParallelism()),
    help: "threads that evaluate user regexes in filters, redaction and schemas (default: the machine's cores, at least 2; a trigger whose checks failed lately uses at most all but one)",
  },
  {
    key: "idleTimeout",
    flag: "--idle-timeout",
    env: "INLET_IDLE_TIMEOUT",
    kind: "integer",
    help: "seconds a connection may send nothing before it is closed (a body cut this way is Rejected in Activity) [default Bun's, 10]",
  },
  {
    key: "rateLimit",
    flag: "--rate-limit",
    env: "INLET_RATE_LIMIT",
    kind: "integer",
    fallback: 0,
    help: "requests per second per trigger before 429 (0 = no limit)",
  },
  {
    key: "retentionDays",
    flag: "--retention-days",
    env: "INLET_RETENTION_DAYS",
    kind: "integer",
    fallback: 30,
    help: "days Activity rows and finished runs are kept",
  },
  {
    key: "runConcurrency",
    flag: "--run-concurrency",
    env: "INLET_RUN_CONCURRENCY",
    kind: "integer",
    fallback: 8,
    help: "workflow runs executed at once (and sandbox processes for scripts)",
  },
  {
    key: "runLeaseSeconds",
    flag: "--run-lease-seconds",
    env: "INLET_RUN_LEASE_SECONDS",
    kind: "integer",
    fallback: 60,
    help: "how long an instance holds a run it executes without renewing (a run of an instance that died is taken over after it)",
  },
  {
    key: "configFile",
    flag: "--config",
    env: "INLET_CONFIG",
    kind: "string",
    help: "a config file of triggers (YAML or JSON) applied at start; an invalid one stops the start",
  },
  {
    key: "configWatch",
    flag: "--watch",
    env: "INLET_CONFIG_WATCH",
    kind: "boolean",
    fallback: false,
    help: "with --config: apply the file again within 2 s of each change (an invalid one is refused, the last good one stays)",
  },
  {
    key: "logRequests",
    flag: "--log-requests",
    env: "INLET_LOG_REQUESTS",
    kind: "boolean",
    fallback: true,
    help: "one JSON log line per webhook request (true/false)",
  },
  {
    key: "adminToken",
    flag: "",
    env: "INLET_ADMIN_TOKEN",
    kind: "string",
    envOnly: true,
    credential: true,
    help: "admin token (default: generated on first start, printed once)",
  },
  {
    key: "secretKey",
    flag: "",
    env: "INLET_SECRET_KEY",
    kind: "string",
    envOnly: true,
    credential: true,
    help: "base64 of 32 bytes that encrypts stored secrets (default: key file in the data dir)",
  },
];
