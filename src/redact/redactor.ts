import { GuestUnit, MAX_NESTING_DEPTH, SandboxError, sandbox as sharedSandbox, type Deadline, type Sandbox } from "../sandbox/index.ts";
import { checkPatterns, RedactionPatternError, redactGuest } from "./patterns.ts";

/** What a redacted field's value becomes. */
export const REDACTED = "[REDACTED]";

export interface RedactorOptions {
  /** The sandbox that runs the patterns (default: the process-wide one). */
  sandbox?: Sandbox;
  /** Field-name decisions remembered per redactor (default 2048); the oldest is forgotten first. */
  maxCachedNames?: number;
}

/**
 * Bounds of the per-redactor cache: entries, and characters across all cached names (~128 KB
 * per trigger at most). Longer names are decided every time rather than remembered, so a
 * flood of them cannot bloat the cache. Real bodies have far fewer distinct names: a 64 KB
 * Stripe invoice has under a hundred.
 */
const DEFAULT_MAX_CACHED_NAMES = 2048;
const MAX_CACHED_CHARS = 65_536;
const MAX_CACHED_NAME_LENGTH = 256;
/** Names per QuickJS call; decisions are cached after each, so a retry of a timed-out body makes progress. */
const BATCH_NAMES = 512;

/**
 * A trigger's compiled redaction: the patterns live compiled in QuickJS, and the host remembers
 * which field names they matched (a bounded map), so a warm body never enters the sandbox.
 */
export class Redactor {
  /** @internal */ readonly unit: GuestUnit | null;
  /** @internal */ readonly decisions = new Map<string, boolean>();
  /** @internal total length of the names in `decisions` */ cachedChars = 0;

  /** @internal use `compileRedaction` */
  constructor(
    readonly patterns: readonly string[],
    /** @internal */ readonly sandbox: Sandbox,
    /** @internal */ readonly maxCachedNames: number,
  ) {
    this.unit = patterns.length > 0 ? new GuestUnit(redactGuest, "compile", JSON.stringify(patterns)) : null;
  }

  /** How many field-name decisions are cached. */
  get cachedNames(): number {
    return this.decisions.size;
  }
}

/**
 * Validates and compiles redaction patterns (see `checkPatterns`); throws a
 * `RedactionPatternError` naming every bad pattern and why.
 *
 * @example
 * ```ts
 * const redactor = compileRedaction(["pass(word)?", "^email$"]);
 * redact(redactor, { user: { Email: "a@b.c", passwords: ["x"] }, note: "email" });
 * // { user: { Email: "[REDACTED]", passwords: "[REDACTED]" }, note: "email" }
 * ```
 */
export function compileRedaction(patterns: readonly string[], options: RedactorOptions = {}): Redactor {
  const sandbox = options.sandbox ?? sharedSandbox;
  const problems = checkPatterns(patterns, sandbox);
  if (problems.length > 0) throw new RedactionPatternError(problems);
  return new Redactor([...patterns], sandbox, options.maxCachedNames ?? DEFAULT_MAX_CACHED_NAMES);
}

/**
 * Returns `body` with the value (of any type) of every field whose name matches a pattern
 * replaced by `"[REDACTED]"`, at every depth, objects inside arrays included. Values and array
 * indexes are never matched. `body` is not modified; the result shares the subtrees that
 * needed no change with it.
 *
 * Fails closed: if the patterns cannot be run (deadline, memory, nesting deeper than 256) it
 * throws a `SandboxError`, and nothing unredacted is returned.
 */
export function redact(redactor: Redactor, body: unknown): unknown {
  if (!redactor.unit || body === null || typeof body !== "object") return body;
  const walk = new Walk(redactor);
  let deadline: Deadline | undefined;
  // Only a pass that met no undecided name is returned. Classifying can evict decisions an
  // earlier pass relied on from the bounded cache; the names then come back undecided and are
  // classified again (into this call's own map), so this ends after at most a few passes.
  for (;;) {
    const out = walk.value(body, 1);
    if (walk.undecided.size === 0) return out;
    deadline ??= redactor.sandbox.deadline();
    classify(redactor, walk, deadline);
  }
}

/** One pass over a body; names without a decision yet are collected and treated as not matching. */
class Walk {
  readonly undecided = new Set<string>();
  /** Decisions made during this call, so a cache smaller than the body cannot lose them. */
  readonly local = new Map<string, boolean>();

  constructor(private readonly redactor: Redactor) {}

  value(value: unknown, depth: number): unknown {
    if (value === null || typeof value !== "object") return value;
    if (depth > MAX_NESTING_DEPTH) throw new SandboxError("sandbox_too_deep", `body nests deeper than ${MAX_NESTING_DEPTH} levels; redaction refused`);
    return Array.isArray(value) ? this.array(value, depth) : this.object(value as Record<string, unknown>, depth);
  }

  private array(items: unknown[], depth: number): unknown[] {
    let out: unknown[] | null = null;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const next = this.value(item, depth + 1);
      if (next !== item && out === null) out = items.slice(0, i);
      if (out !== null) out.push(next);
    }
    return out ?? items;
  }

  private object(fields: Record<string, unknown>, depth: number): Record<string, unknown> {
    let out: Record<string, unknown> | null = null;
    const keys = Object.keys(fields);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const value = fields[key];
      const next = this.matches(key) ? REDACTED : this.value(value, depth + 1);
      if (next !== value && out === null) {
        out = {};
        for (let j = 0; j < i; j++) put(out, keys[j], fields[keys[j]]);
      }
      if (out !== null) put(out, key, next);
    }
    return out ?? fields;
  }

  private matches(name: string): boolean {
    const known = this.redactor.decisions.get(name) ?? this.local.get(name);
    if (known !== undefined) return known;
    this.undecided.add(name);
    return false;
  }
}

// `out[key] = value` with key "__proto__" would set the prototype instead of a field.
function put(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** Decides the walk's undecided names in QuickJS, all under one deadline. */
function classify(redactor: Redactor, walk: Walk, deadline: Deadline): void {
  const names = [...walk.undecided];
  walk.undecided.clear();
  for (let start = 0; start < names.length; start += BATCH_NAMES) {
    const batch = names.slice(start, start + BATCH_NAMES);
    const answer = redactor.sandbox.call(redactGuest, "classify", [redactor.unit!, JSON.stringify(batch)], deadline);
    if (answer.length !== batch.length) throw new SandboxError("sandbox_guest_error", `redaction classified ${answer.length} names, expected ${batch.length}`);
    for (let i = 0; i < batch.length; i++) {
      const name = batch[i];
      const decision = answer.charCodeAt(i) === 49; // "1"
      walk.local.set(name, decision);
      remember(redactor, name, decision);
    }
  }
}

function remember(redactor: Redactor, name: string, decision: boolean): void {
  if (name.length > MAX_CACHED_NAME_LENGTH || redactor.maxCachedNames <= 0) return;
  const { decisions } = redactor;
  if (decisions.has(name)) return;
  while (decisions.size > 0 && (decisions.size >= redactor.maxCachedNames || redactor.cachedChars + name.length > MAX_CACHED_CHARS)) {
    const oldest = decisions.keys().next().value as string;
    decisions.delete(oldest);
    redactor.cachedChars -= oldest.length;
  }
  decisions.set(name, decision);
  redactor.cachedChars += name.length;
}
