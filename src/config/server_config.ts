import { availableParallelism } from "node:os";
import { parseCidr, rangesOf } from "../net/cidr.ts";
import { parseFetchAllow } from "./provider_fetch_allow.ts";
import { decodeSecretKey } from "./secret_key.ts";
import { isStandardWebhookSecret } from "./standard_webhook_secret.ts";
import { redactUrl } from "./redact_url.ts";
import { readSecretFiles } from "./secret_files.ts";
import { UsageError } from "./usage_error.ts";
import { Type, type Static } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";

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

const check = TypeCompiler.Compile(ServerConfigSchema);

/** One settable option: its flag, env twin, kind, default and help line. */
interface Option {
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
  { key: "baseUrl", flag: "--base-url", env: "INLET_BASE_URL", kind: "string", help: "public URL used in trigger URLs and signed recipes (default http://HOST:PORT)" },
  { key: "pluginsDir", flag: "--plugins-dir", env: "INLET_PLUGINS_DIR", kind: "string", help: "extra app-trigger plugins (*.ts, *.js) loaded at start" },
  { key: "databaseUrl", flag: "--database-url", env: "INLET_DATABASE_URL", kind: "string", help: "postgres://… to share one PostgreSQL between instances" },
  { key: "maxBodyBytes", flag: "--max-body-bytes", env: "INLET_MAX_BODY_BYTES", kind: "integer", fallback: 1024 * 1024, help: "largest accepted request body (413 past it)" },
  { key: "alertUrl", flag: "--alert-url", env: "INLET_ALERT_URL", kind: "string", help: "where alert notifications are POSTed (a Slack incoming-webhook URL works as is)" },
  { key: "alertSecret", flag: "--alert-secret", env: "INLET_ALERT_SECRET", kind: "string", help: "Standard Webhooks secret (whsec_…) that signs alert notifications" },
  { key: "alertInterval", flag: "--alert-interval", env: "INLET_ALERT_INTERVAL", kind: "integer", fallback: 5, help: "seconds between alert evaluations (1 to 5)" },
  { key: "trustedProxies", flag: "--trusted-proxies", env: "INLET_TRUSTED_PROXIES", kind: "string", help: "CIDR,CIDR of proxies whose X-Forwarded-For names the caller (else the header is ignored)" },
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
  { key: "sandboxWorkers", flag: "--sandbox-workers", env: "INLET_SANDBOX_WORKERS", kind: "integer", fallback: Math.max(2, availableParallelism()), help: "threads that evaluate user regexes in filters, redaction and schemas (default: the machine's cores, at least 2; a trigger whose checks failed lately uses at most all but one)" },
  { key: "idleTimeout", flag: "--idle-timeout", env: "INLET_IDLE_TIMEOUT", kind: "integer", help: "seconds a connection may send nothing before it is closed (a body cut this way is Rejected in Activity) [default Bun's, 10]" },
  { key: "rateLimit", flag: "--rate-limit", env: "INLET_RATE_LIMIT", kind: "integer", fallback: 0, help: "requests per second per trigger before 429 (0 = no limit)" },
  { key: "retentionDays", flag: "--retention-days", env: "INLET_RETENTION_DAYS", kind: "integer", fallback: 30, help: "days Activity rows and finished runs are kept" },
  { key: "runConcurrency", flag: "--run-concurrency", env: "INLET_RUN_CONCURRENCY", kind: "integer", fallback: 8, help: "workflow runs executed at once (and sandbox processes for scripts)" },
  {
    key: "runLeaseSeconds",
    flag: "--run-lease-seconds",
    env: "INLET_RUN_LEASE_SECONDS",
    kind: "integer",
    fallback: 60,
    help: "how long an instance holds a run it executes without renewing (a run of an instance that died is taken over after it)",
  },
  { key: "configFile", flag: "--config", env: "INLET_CONFIG", kind: "string", help: "a config file of triggers (YAML or JSON) applied at start; an invalid one stops the start" },
  { key: "configWatch", flag: "--watch", env: "INLET_CONFIG_WATCH", kind: "boolean", fallback: false, help: "with --config: apply the file again within 2 s of each change (an invalid one is refused, the last good one stays)" },
  { key: "logRequests", flag: "--log-requests", env: "INLET_LOG_REQUESTS", kind: "boolean", fallback: true, help: "one JSON log line per webhook request (true/false)" },
  { key: "adminToken", flag: "", env: "INLET_ADMIN_TOKEN", kind: "string", envOnly: true, credential: true, help: "admin token (default: generated on first start, printed once)" },
  { key: "secretKey", flag: "", env: "INLET_SECRET_KEY", kind: "string", envOnly: true, credential: true, help: "base64 of 32 bytes that encrypts stored secrets (default: key file in the data dir)" },
];

/** What a value that fails the schema must be, where TypeBox's own words would not help. */
const MESSAGES: Partial<Record<keyof ServerConfig, string>> = {
  databaseUrl: "must be a PostgreSQL URL, postgres://USER:PASSWORD@HOST:PORT/DATABASE",
  baseUrl: "must be an http:// or https:// URL",
  alertUrl: "must be an http:// or https:// URL",
  adminToken: "must be at least 16 characters",
  metricsToken: "must be at least 16 characters",
};

export { UsageError };

const TRUE_WORDS = ["1", "true", "yes", "on"];
const FALSE_WORDS = ["0", "false", "no", "off"];

/**
 * Whether a flag written without `=` takes the next word as its value: a flag with a value always
 * (flagValue refuses a missing one), a boolean flag only a word that says true or false
 * (`--log-requests off`), else it stands alone for true (`--log-requests list`). The one rule for
 * `inlet serve` and for server flags given to other commands.
 */
export function takesNextWord(option: Option, next: string | undefined): boolean {
  if (option.kind !== "boolean") return true;
  const word = next?.trim().toLowerCase();
  return word !== undefined && (TRUE_WORDS.includes(word) || FALSE_WORDS.includes(word));
}

function convert(option: Option, raw: string, source: string): string | number | boolean {
  if (option.kind === "integer") {
    if (!/^-?\d+$/.test(raw.trim())) throw new UsageError(`${source} must be a whole number, got ${JSON.stringify(raw)}`);
    return Number(raw);
  }
  if (option.kind === "boolean") {
    const v = raw.trim().toLowerCase();
    if (TRUE_WORDS.includes(v)) return true;
    if (FALSE_WORDS.includes(v)) return false;
    throw new UsageError(`${source} must be true or false, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

/**
 * The word after a flag that takes a value: missing, or another flag (`--limit --data-dir X` is
 * a forgotten value, not a limit of "--data-dir"), is a usage error; `--flag=--x` passes such a value.
 */
export function flagValue(flag: string, next: string | undefined): string {
  if (next === undefined) throw new UsageError(`${flag} needs a value`);
  if (next.startsWith("--")) throw new UsageError(`${flag} needs a value (the next word, ${next}, is a flag; write ${flag}=VALUE for a value that starts with --)`);
  return next;
}

/**
 * Reads the server settings: flags first, then env twins, then defaults. `args` are the
 * flags left after the command words; unknown flags are an error that names them.
 */
export function loadServerConfig(args: string[], environment: Record<string, string | undefined> = process.env): ServerConfig {
  const env = readSecretFiles(environment);
  const values: Record<string, unknown> = {};
  const explicit = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf("=");
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const option = OPTIONS.find((o) => o.flag && o.flag === flag);
    if (!option) {
      // A stray word right after a boolean flag written bare (`--log-requests maybe`) was meant as its value.
      const bare = OPTIONS.find((o) => o.kind === "boolean" && o.flag && o.flag === args[i - 1]);
      if (bare && !arg.startsWith("-")) throw new UsageError(`${bare.flag} must be true or false, got ${JSON.stringify(arg)}`);
      throw new UsageError(`${flag.startsWith("-") ? "unknown flag" : "unexpected argument"} ${flag} (see 'inlet help')`);
    }
    let raw: string | undefined = eq > 0 ? arg.slice(eq + 1) : undefined;
    if (raw === undefined) raw = takesNextWord(option, args[i + 1]) ? flagValue(flag, args[++i]) : "true";
    values[option.key] = convert(option, raw, flag);
    explicit.add(option.key);
  }
  for (const option of OPTIONS) {
    if (values[option.key] !== undefined) continue;
    const raw = env[option.env];
    if (raw !== undefined && raw !== "") {
      values[option.key] = convert(option, raw, option.env);
      explicit.add(option.key);
    } else if (option.fallback !== undefined) values[option.key] = option.fallback;
  }
  if (typeof values.baseUrl === "string") values.baseUrl = values.baseUrl.replace(/\/+$/, "");
  if (!check.Check(values)) {
    const first = check.Errors(values).First()!;
    const option = OPTIONS.find((o) => `/${o.key}` === first.path);
    const name = option ? option.flag || option.env : first.path;
    // URLs may carry a password: what was given is shown without it; a credential not at all.
    const given = typeof first.value === "string" && /url/i.test(option?.key ?? "") ? redactUrl(first.value) : first.value;
    const got = option?.credential ? `${String(first.value).length} characters, not shown` : JSON.stringify(given);
    throw new UsageError(`${name}: ${(option && MESSAGES[option.key]) ?? first.message} (got ${got})`);
  }
  if (typeof values.secretKey === "string") {
    const decoded = decodeSecretKey(values.secretKey);
    if ("problem" in decoded) throw new UsageError(`INLET_SECRET_KEY must be base64 of exactly 32 bytes, but it ${decoded.problem} (to start afresh: openssl rand -base64 32)`);
    // The one spelling the key file uses, whichever alphabet or padding was given.
    values.secretKey = decoded.key.toString("base64");
  }
  if (typeof values.alertSecret === "string" && !isStandardWebhookSecret(values.alertSecret)) {
    throw new UsageError("--alert-secret: must be a Standard Webhooks secret, whsec_ followed by base64 of at least 16 random bytes");
  }
  for (const entry of String(values.trustedProxies ?? "").split(",").map((e) => e.trim()).filter(Boolean)) {
    const parsed = parseCidr(entry);
    if (!parsed.ok) throw new UsageError(`--trusted-proxies: ${parsed.reason} (write CIDR ranges separated by commas, e.g. 10.0.0.0/8,127.0.0.1)`);
  }
  try {
    parseFetchAllow(values.providerFetchAllow as string | undefined);
  } catch (error) {
    throw new UsageError(`--provider-fetch-allow: ${(error as Error).message}`);
  }
  if (values.configWatch === true && values.configFile === undefined) throw new UsageError("--watch watches the config file: give it with --config FILE (or INLET_CONFIG)");
  const config = values as ServerConfig;
  given.set(config, explicit);
  return config;
}

/** Settings given by a flag or the environment (not left to their defaults), per loaded config. */
const given = new WeakMap<ServerConfig, ReadonlySet<string>>();

/** Whether `key` was given by a flag or its environment twin, rather than left to its default. */
export function isGiven(config: ServerConfig, key: keyof ServerConfig): boolean {
  return given.get(config)?.has(key) ?? false;
}

/** The trusted proxies' ranges (validated when the config was loaded). */
export const trustedProxyRanges = (config: Pick<ServerConfig, "trustedProxies">) => rangesOf((config.trustedProxies ?? "").split(",").map((e) => e.trim()).filter(Boolean));

/**
 * The base URL trigger URLs are built from: `--base-url`, else `http://HOST:PORT`. A wildcard
 * host (0.0.0.0, ::) is where inlet listens, not an address anyone can call (browsers refuse
 * 0.0.0.0): its URLs name the loopback address of the same family instead.
 */
export function publicBaseUrl(config: Pick<ServerConfig, "baseUrl" | "host">, port: number): string {
  if (config.baseUrl) return config.baseUrl;
  return `http://${hostPort(WILDCARD_HOSTS[config.host] ?? config.host, port)}`;
}

/** `host:port`, an IPv6 host in brackets. */
export const hostPort = (host: string, port: number) => `${host.includes(":") ? `[${host}]` : host}:${port}`;

const WILDCARD_HOSTS: Record<string, string> = { "0.0.0.0": "127.0.0.1", "::": "::1", "[::]": "::1", "::0": "::1" };
