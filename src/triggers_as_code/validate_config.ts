import { normalizeTrigger, type NormalizeContext, type TriggerSettings } from "../triggers/normalize.ts";
import { ValidationError } from "../triggers/validation_error.ts";
import { failure, success, type ConfigError, type ConfigResult } from "./config_error.ts";
import { triggerLabel } from "./locate.ts";
import { scrubErrors } from "./scrub.ts";

/** The API's rules (docs/api.md), and which triggers have a secret inlet generates. */
export interface TriggersAsCodeContext extends NormalizeContext {
  /** The same policy the trigger service is given: generic non-none modes, and apps whose plugin generates one. */
  needsGeneratedSecret(settings: TriggerSettings): boolean;
}

/** One trigger of the file, checked by the API's rules. */
export interface DesiredTrigger {
  name: string;
  /** Its place in the file's `triggers` list. */
  index: number;
  /** The file's TriggerInput without `token` and `auth.secret`. */
  input: Record<string, unknown>;
  /** Normalized as the API would create it: complete, defaults applied. Apply stores exactly this. */
  settings: TriggerSettings;
  /** Pinned: the URL keeps this token. Absent: a new trigger gets a generated one, an existing one keeps its own. */
  token?: string;
  /** Supplied instead of a generated secret. Absent: generated, or kept. */
  secret?: string;
  /** An app trigger's provider secret. Absent: kept (or none). */
  appSecret?: string;
}

export interface ConfigFile {
  triggers: DesiredTrigger[];
  /** Delete the triggers the config manages that the file no longer names. */
  prune: boolean;
}

const FILE_FIELDS = ["triggers", "prune"];
const TOKEN = /^[A-Za-z0-9_-]{32,128}$/;
const MIN_SECRET_LENGTH = 16;
const MAX_SECRET_LENGTH = 10_000;
const CONTROL = /[\u0000-\u001f\u007f]/;

const isMapping = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** The value at a JSON pointer of the document, or undefined. */
function valueAt(document: unknown, pointer: string): unknown {
  let value = document;
  for (const part of pointer.split("/").slice(1)) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return value;
}

function secretProblem(secret: unknown): string | null {
  if (typeof secret !== "string") return "must be a string";
  if (secret.length < MIN_SECRET_LENGTH) return `must be at least ${MIN_SECRET_LENGTH} characters (it has ${secret.length})`;
  if (secret.length > MAX_SECRET_LENGTH) return `must be at most ${MAX_SECRET_LENGTH} characters`;
  if (CONTROL.test(secret)) return "holds a control character (a line break left in its file?)";
  return null;
}

/** Splits what only a config file has (`token`, `auth.secret`) from the TriggerInput the API checks. */
function splitTrigger(raw: Record<string, unknown>): { input: Record<string, unknown>; token: unknown; secret: unknown } {
  const { token, ...input } = raw;
  if (!isMapping(input.auth) || !("secret" in input.auth)) return { input, token, secret: undefined };
  const { secret, ...auth } = input.auth;
  return { input: { ...input, auth }, token, secret };
}

/**
 * Checks a whole (substituted) config file before anything changes: its shape
 * (`{ triggers: [...], prune?: boolean }`), every trigger by the API's own rules
 * (`normalizeTrigger`), pinned tokens, supplied secrets, and that names and tokens are unique in
 * the file. Every problem is reported, with its trigger and field path; no message quotes a
 * secret, a token, an appSecret or a substituted value (`substitutedPaths`).
 */
export function validateConfig(document: unknown, context: TriggersAsCodeContext, substitutedPaths: readonly string[] = []): ConfigResult<ConfigFile> {
  const errors: ConfigError[] = [];
  const hidden: string[] = substitutedPaths.map((pointer) => valueAt(document, pointer)).filter((v): v is string => typeof v === "string");
  const result = check(document, context, errors, hidden);
  return errors.length > 0 ? failure(scrubErrors(errors, hidden)) : success(result);
}

function check(document: unknown, context: TriggersAsCodeContext, errors: ConfigError[], hidden: string[]): ConfigFile {
  const config: ConfigFile = { triggers: [], prune: false };
  if (!isMapping(document)) {
    errors.push({ code: "invalid_file", message: "the file must be a mapping with a list of triggers, e.g. triggers: [{ name: orders }]" });
    return config;
  }
  for (const key of Object.keys(document)) {
    if (!FILE_FIELDS.includes(key))
      errors.push({ code: "invalid_file", path: `/${key}`, message: "is not a known field (a config file has triggers and prune)" });
  }
  if (document.prune !== undefined && typeof document.prune !== "boolean")
    errors.push({ code: "invalid_file", path: "/prune", message: "must be true or false" });
  config.prune = document.prune === true;
  if (!Array.isArray(document.triggers)) {
    errors.push({
      code: "invalid_file",
      path: "/triggers",
      message: document.triggers === undefined ? "is required: a list of triggers ([] for none)" : "must be a list of triggers",
    });
    return config;
  }
  const names = new Map<string, string>();
  const tokens = new Map<string, string>();
  document.triggers.forEach((raw, index) => {
    const trigger = triggerLabel(raw, index);
    const problem = (code: ConfigError["code"], path: string | undefined, message: string) =>
      errors.push({ code, trigger, ...(path ? { path } : {}), message });
    if (!isMapping(raw)) return problem("invalid_trigger", undefined, "must be a mapping with at least a name");
    const { input, token, secret } = splitTrigger(raw);
    for (const value of [token, secret, input.appSecret]) if (typeof value === "string") hidden.push(value);
    let settings: TriggerSettings | undefined;
    try {
      settings = normalizeTrigger(input, { ...context, declared: true });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      for (const detail of error.details) problem("invalid_trigger", detail.path, detail.message);
    }
    if (token !== undefined) {
      if (typeof token !== "string" || !TOKEN.test(token)) {
        const length = typeof token === "string" ? ` (it has ${token.length})` : "";
        problem("invalid_trigger", "/token", `must be 32 to 128 characters of A–Z, a–z, 0–9, _ and -${length}`);
      } else if (tokens.has(token)) problem("duplicate_token", "/token", `is also the token of ${tokens.get(token)} in this file: each trigger needs its own`);
      else tokens.set(token, trigger);
    }
    if (secret !== undefined) {
      const wrong = secretProblem(secret);
      if (wrong) problem("invalid_trigger", "/auth/secret", wrong);
      else if (settings && !context.needsGeneratedSecret(settings)) problem("invalid_trigger", "/auth/secret", noSecretHere(settings));
    }
    if (input.appSecret === "") problem("invalid_trigger", "/appSecret", "is empty: leave appSecret out when there is none");
    if (typeof raw.name === "string") {
      if (names.has(raw.name))
        problem("duplicate_name", "/name", `is also the name of ${names.get(raw.name)}: the name identifies a trigger, so each must be unique`);
      else names.set(raw.name, `triggers[${index}]`);
    }
    if (settings) {
      config.triggers.push({
        name: settings.name,
        index,
        input,
        settings,
        ...(typeof token === "string" ? { token } : {}),
        ...(typeof secret === "string" ? { secret } : {}),
        ...(typeof input.appSecret === "string" ? { appSecret: input.appSecret } : {}),
      });
    }
  });
  return config;
}

function noSecretHere(settings: TriggerSettings): string {
  if (settings.app !== null) return `the ${settings.app} app's secret is not one inlet generates: give the provider's secret as appSecret`;
  if (settings.auth.type === "none") return 'auth type "none" has no secret: leave auth.secret out, or choose a type that has one';
  return `auth type "${settings.auth.type}" with these settings verifies with a public key, not a secret: leave auth.secret out`;
}
