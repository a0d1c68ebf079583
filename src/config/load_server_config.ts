import { TypeCompiler } from "@sinclair/typebox/compiler";
import { parseCidr } from "../net/cidr.ts";
import { parseFetchAllow } from "./provider_fetch_allow.ts";
import { decodeSecretKey } from "./secret_key.ts";
import { isStandardWebhookSecret } from "./standard_webhook_secret.ts";
import { redactUrl } from "./redact_url.ts";
import { readSecretFiles } from "./secret_files.ts";
import { OPTIONS, ServerConfigSchema, type Option, type ServerConfig } from "./server_config.ts";
import { UsageError } from "./usage_error.ts";

const check = TypeCompiler.Compile(ServerConfigSchema);

/** What a value that fails the schema must be, where TypeBox's own words would not help. */
const MESSAGES: Partial<Record<keyof ServerConfig, string>> = {
  databaseUrl: "must be a PostgreSQL URL, postgres://USER:PASSWORD@HOST:PORT/DATABASE",
  baseUrl: "must be an http:// or https:// URL",
  alertUrl: "must be an http:// or https:// URL",
  adminToken: "must be at least 16 characters",
  metricsToken: "must be at least 16 characters",
};

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
  if (next.startsWith("--"))
    throw new UsageError(`${flag} needs a value (the next word, ${next}, is a flag; write ${flag}=VALUE for a value that starts with --)`);
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
    if ("problem" in decoded)
      throw new UsageError(`INLET_SECRET_KEY must be base64 of exactly 32 bytes, but it ${decoded.problem} (to start afresh: openssl rand -base64 32)`);
    // The one spelling the key file uses, whichever alphabet or padding was given.
    values.secretKey = decoded.key.toString("base64");
  }
  if (typeof values.alertSecret === "string" && !isStandardWebhookSecret(values.alertSecret)) {
    throw new UsageError("--alert-secret: must be a Standard Webhooks secret, whsec_ followed by base64 of at least 16 random bytes");
  }
  for (const entry of String(values.trustedProxies ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const parsed = parseCidr(entry);
    if (!parsed.ok) throw new UsageError(`--trusted-proxies: ${parsed.reason} (write CIDR ranges separated by commas, e.g. 10.0.0.0/8,127.0.0.1)`);
  }
  try {
    parseFetchAllow(values.providerFetchAllow as string | undefined);
  } catch (error) {
    throw new UsageError(`--provider-fetch-allow: ${(error as Error).message}`);
  }
  if (values.configWatch === true && values.configFile === undefined)
    throw new UsageError("--watch watches the config file: give it with --config FILE (or INLET_CONFIG)");
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
