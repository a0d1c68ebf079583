import type { AppSettingCheckContext, AppSettingSpec, AppSettingValue } from "./types.ts";

/** One problem with an `appSettings` value, by JSON pointer (the trigger's 400 `details`). */
export interface SettingProblem {
  path: string;
  message: string;
}

/** The longest `text` value or line, and the most lines a `lines` setting holds. */
export const MAX_SETTING_CHARS = 2000;
export const MAX_SETTING_LINES = 200;

const KIND_WORDS = { text: "a string", lines: "an array of strings (one per line)", switch: "true or false" } as const;

/** A setting's value when a trigger sets none. */
export function settingDefault(spec: AppSettingSpec): AppSettingValue {
  if (spec.default !== undefined) return Array.isArray(spec.default) ? [...spec.default] : spec.default;
  return spec.kind === "lines" ? [] : spec.kind === "switch" ? false : "";
}

/**
 * Every declared setting with the trigger's value, or its default where it has none (a setting
 * the plugin added after the trigger was saved): `ctx.settings`, frozen.
 *
 * @example
 * ```ts
 * settingsWithDefaults([{ key: "autoConfirm", label: "Auto-confirm subscriptions", kind: "switch" }], undefined);
 * // { autoConfirm: false }
 * ```
 */
export function settingsWithDefaults(
  specs: readonly AppSettingSpec[] | undefined,
  stored: Readonly<Record<string, AppSettingValue>> | undefined,
): Readonly<Record<string, AppSettingValue>> {
  const out: Record<string, AppSettingValue> = {};
  for (const spec of specs ?? []) {
    const value = stored && Object.hasOwn(stored, spec.key) ? stored[spec.key] : settingDefault(spec);
    out[spec.key] = Array.isArray(value) ? (Object.freeze([...value]) as string[]) : value;
  }
  return Object.freeze(out);
}

/** `value` as `spec.kind` wants it (strings trimmed), or what is wrong with it. */
function coerce(spec: AppSettingSpec, value: unknown, path: string, problems: SettingProblem[]): AppSettingValue | undefined {
  const wrong = () => void problems.push({ path, message: `must be ${KIND_WORDS[spec.kind]} (${spec.label})` });
  if (spec.kind === "switch") return typeof value === "boolean" ? value : wrong();
  if (spec.kind === "text") {
    if (typeof value !== "string") return wrong();
    if (value.length > MAX_SETTING_CHARS) return void problems.push({ path, message: `is longer than ${MAX_SETTING_CHARS} characters` });
    return value.trim();
  }
  if (!Array.isArray(value)) return wrong();
  if (value.length > MAX_SETTING_LINES) return void problems.push({ path, message: `has ${value.length} lines; at most ${MAX_SETTING_LINES}` });
  const before = problems.length;
  const lines = value.map((line, i) => {
    if (typeof line !== "string") problems.push({ path: `${path}/${i}`, message: "must be a string" });
    else if (line.trim() === "") problems.push({ path: `${path}/${i}`, message: "is empty: remove the line" });
    else if (line.length > MAX_SETTING_CHARS) problems.push({ path: `${path}/${i}`, message: `is longer than ${MAX_SETTING_CHARS} characters` });
    return typeof line === "string" ? line.trim() : "";
  });
  return problems.length === before ? lines : undefined;
}

/** A plugin's check, a throw taken as its problem (a broken check must not pass a value). */
function run(check: () => string | null, path: string, problems: SettingProblem[]): void {
  let problem: unknown;
  try {
    problem = check();
  } catch (error) {
    problem = `could not be checked: ${(error as Error)?.message ?? String(error)}`;
  }
  if (typeof problem === "string" && problem !== "") problems.push({ path, message: problem });
}

/**
 * A trigger's `appSettings` after a create or change (`given`: the request's, keys with `null`
 * set back to their default; `current`: what is stored), every declared setting present, each
 * value of its kind and accepted by the plugin's `check` (and `checkLine`, per line). Problems
 * are paths under `/appSettings`.
 *
 * @example
 * ```ts
 * resolveAppSettings(plugin, { topicArns: ["arn:aws:sns:us-east-1:123456789012:orders"] }, undefined, { triggerUrl, fetchProblem });
 * // { settings: { topicArns: [...], autoConfirm: false }, problems: [] }
 * ```
 */
export function resolveAppSettings(
  plugin: { name: string; settings?: readonly AppSettingSpec[] },
  given: Record<string, unknown> | undefined,
  current: Readonly<Record<string, AppSettingValue>> | undefined,
  ctx: AppSettingCheckContext,
): { settings: Record<string, AppSettingValue>; problems: SettingProblem[] } {
  const specs = plugin.settings ?? [];
  const problems: SettingProblem[] = [];
  const declared = new Map(specs.map((s) => [s.key, s]));
  for (const key of Object.keys(given ?? {})) {
    if (declared.has(key)) continue;
    const known = specs.length ? `its settings are ${specs.map((s) => s.key).join(", ")}` : "it has none";
    problems.push({ path: `/appSettings/${pointer(key)}`, message: `is not a setting of ${plugin.name} (${known})` });
  }
  const settings: Record<string, AppSettingValue> = {};
  for (const spec of specs) {
    const path = `/appSettings/${pointer(spec.key)}`;
    const raw = given && Object.hasOwn(given, spec.key) ? given[spec.key] : current && Object.hasOwn(current, spec.key) ? current[spec.key] : null;
    const value = raw === null ? settingDefault(spec) : coerce(spec, raw, path, problems);
    if (value === undefined) continue;
    settings[spec.key] = value;
    if (spec.check) run(() => spec.check!(value, ctx), path, problems);
    if (spec.checkLine && Array.isArray(value)) value.forEach((line, i) => run(() => spec.checkLine!(line, ctx), `${path}/${i}`, problems));
  }
  return { settings, problems };
}

/** A key as one JSON-pointer segment. */
const pointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");
