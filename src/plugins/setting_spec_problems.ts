const KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const KINDS = ["text", "lines", "switch"];

/** Whether `value` is a default of `kind`. */
function fitsKind(kind: string, value: unknown): boolean {
  if (kind === "switch") return typeof value === "boolean";
  if (kind === "text") return typeof value === "string";
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

/**
 * What is wrong with a plugin's `settings` declaration (checked when the plugin is loaded):
 * keys, labels, kinds, defaults of their kind, checks that are functions.
 *
 * @example
 * ```ts
 * settingSpecProblems([{ key: "topic-arns", label: "Topic ARNs", kind: "lines" }]);
 * // ['settings[0].key must match [A-Za-z][A-Za-z0-9_]* (got "topic-arns")']
 * ```
 */
export function settingSpecProblems(settings: unknown): string[] {
  if (!Array.isArray(settings)) return ["settings must be an array of { key, label, kind }"];
  const problems: string[] = [];
  const seen = new Set<string>();
  settings.forEach((spec: Record<string, unknown> | null, i) => {
    const at = `settings[${i}]`;
    if (spec === null || typeof spec !== "object") return void problems.push(`${at} must be { key, label, kind }`);
    const { key, label, kind, help, check, checkLine } = spec;
    if (typeof key !== "string" || !KEY.test(key)) problems.push(`${at}.key must match [A-Za-z][A-Za-z0-9_]* (got ${JSON.stringify(key)})`);
    else if (seen.has(key)) problems.push(`${at}.key ${JSON.stringify(key)} is declared twice`);
    else seen.add(key);
    if (typeof label !== "string" || label.trim() === "") problems.push(`${at}.label must be a non-empty string (the field's name in the panel)`);
    if (typeof kind !== "string" || !KINDS.includes(kind)) problems.push(`${at}.kind must be one of ${KINDS.join(", ")} (got ${JSON.stringify(kind)})`);
    else if (spec.default !== undefined && !fitsKind(kind, spec.default)) problems.push(`${at}.default must be of its kind, ${kind}`);
    if (help !== undefined && typeof help !== "string") problems.push(`${at}.help must be a string when present`);
    if (check !== undefined && typeof check !== "function") problems.push(`${at}.check must be a function when present`);
    if (checkLine !== undefined && (typeof checkLine !== "function" || kind !== "lines"))
      problems.push(`${at}.checkLine must be a function, on a setting of kind lines`);
  });
  return problems;
}
