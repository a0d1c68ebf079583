import { ExactNumber } from "../json/index.ts";
import { GuestUnit, MAX_NESTING_DEPTH, SandboxError, sandbox as sharedSandbox, type Deadline, type Sandbox } from "../sandbox/index.ts";
import { mayHoldJson, parseEmbeddedJson, type EmbeddedJson } from "./embedded_json.ts";
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
 * Field-name decisions remembered across bodies (a bounded map, the oldest forgotten first):
 * which names the patterns matched, so a warm body never enters the sandbox. The decisions are
 * the sandbox's; whoever holds this map only looks them up.
 */
export class NameDecisions {
  /** @internal */ readonly map = new Map<string, boolean>();
  /** @internal total length of the names in `map` */ cachedChars = 0;

  constructor(readonly maxNames: number = DEFAULT_MAX_CACHED_NAMES) {}

  /** How many decisions are cached. */
  get size(): number {
    return this.map.size;
  }

  get(name: string): boolean | undefined {
    return this.map.get(name);
  }

  remember(name: string, decision: boolean): void {
    if (name.length > MAX_CACHED_NAME_LENGTH || this.maxNames <= 0 || this.map.has(name)) return;
    while (this.map.size > 0 && (this.map.size >= this.maxNames || this.cachedChars + name.length > MAX_CACHED_CHARS)) {
      const oldest = this.map.keys().next().value as string;
      this.map.delete(oldest);
      this.cachedChars -= oldest.length;
    }
    this.map.set(name, decision);
    this.cachedChars += name.length;
  }
}

/**
 * A trigger's compiled redaction: the patterns live compiled in QuickJS, and the host remembers
 * which field names they matched, so a warm body never enters the sandbox.
 */
export class Redactor {
  /** @internal */ readonly unit: GuestUnit | null;
  /** @internal */ readonly decisions: NameDecisions;

  /** @internal use `compileRedaction` */
  constructor(
    readonly patterns: readonly string[],
    /** @internal */ readonly sandbox: Sandbox,
    maxCachedNames: number,
  ) {
    this.unit = patterns.length > 0 ? new GuestUnit(redactGuest, "compile", JSON.stringify(patterns)) : null;
    this.decisions = new NameDecisions(maxCachedNames);
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
 * indexes are never matched. A string that holds a JSON object or array (`body` itself, or any
 * value in it) is redacted inside too and stays a string: the redacted value serialized, or the
 * string as it was when nothing in it changed. `body` is not modified; the result shares the
 * subtrees that needed no change with it.
 *
 * Fails closed: if the patterns cannot be run (deadline, memory, nesting deeper than 256) it
 * throws a `SandboxError`, and nothing unredacted is returned.
 */
export function redact(redactor: Redactor, body: unknown): unknown {
  if (!redactor.unit || !mayHoldFields(body)) return body;
  const walk = new Walk(redactor.decisions);
  let deadline: Deadline | undefined;
  // Only a pass that met no undecided name is returned. Classifying can evict decisions an
  // earlier pass relied on from the bounded cache; the names then come back undecided and are
  // classified again (into this call's own map), so this ends after at most a few passes.
  for (;;) {
    const out = walk.value(body, 1);
    if (walk.undecided.size === 0) return out;
    deadline ??= redactor.sandbox.deadline();
    const names = walk.take();
    walk.decide(names, classifyNames(redactor, names, deadline));
  }
}

/**
 * `redact` where the names are classified elsewhere (a sandbox worker holding the compiled
 * patterns): `classify` answers one "1"/"0" per name. Names already in `decisions` are not asked
 * again, so a body whose field names all recur is redacted without a round trip.
 */
export async function redactWith(decisions: NameDecisions, body: unknown, classify: (names: string[]) => Promise<string>): Promise<unknown> {
  if (!mayHoldFields(body)) return body;
  const walk = new Walk(decisions);
  for (;;) {
    const out = walk.value(body, 1);
    if (walk.undecided.size === 0) return out;
    const names = walk.take();
    walk.decide(names, await classify(names));
  }
}

/** Objects and arrays, and strings, which may hold either as JSON text. */
const mayHoldFields = (body: unknown) => typeof body === "string" || (body !== null && typeof body === "object");

/**
 * One "1"/"0" per name: whether any of the redactor's patterns matches it. Names it has decided
 * before are answered from its cache; the others run in QuickJS, in batches, all under
 * `deadline`, and are remembered after each batch, so a retry of a timed-out body makes
 * progress. Throws a `SandboxError` when it cannot finish.
 */
export function classifyNames(redactor: Redactor, names: readonly string[], deadline?: Deadline): string {
  if (!redactor.unit) return "0".repeat(names.length);
  // Every answer comes from this call's own map: the known decisions are read now, because
  // remembering the new ones below can evict them from the bounded cache (a name read back
  // afterwards would come out undecided, and an undecided name must never read as "0").
  const decided = new Map<string, boolean>();
  const unknown: string[] = [];
  for (const name of names) {
    const known = redactor.decisions.get(name);
    if (known === undefined) unknown.push(name);
    else decided.set(name, known);
  }
  for (let start = 0; start < unknown.length; start += BATCH_NAMES) {
    const batch = unknown.slice(start, start + BATCH_NAMES);
    deadline ??= redactor.sandbox.deadline();
    const answer = redactor.sandbox.call(redactGuest, "classify", [redactor.unit, JSON.stringify(batch)], deadline);
    takeAnswer(batch, answer, decided, redactor.decisions);
  }
  let out = "";
  for (const name of names) out += decided.get(name) ? "1" : "0";
  return out;
}

/**
 * A classifier's answer, one "1"/"0" per name (a wrong length is the guest's fault): each decision
 * goes into `call` (this call's own, which nothing evicts) and is remembered in the bounded cache.
 */
function takeAnswer(names: readonly string[], answer: string, call: Map<string, boolean>, cache: NameDecisions): void {
  if (answer.length !== names.length) throw new SandboxError("sandbox_guest_error", `redaction classified ${answer.length} names, expected ${names.length}`);
  for (let i = 0; i < names.length; i++) {
    const decision = answer.charCodeAt(i) === 49; // "1"
    call.set(names[i], decision);
    cache.remember(names[i], decision);
  }
}

/** One pass over a body; names without a decision yet are collected and treated as not matching. */
class Walk {
  readonly undecided = new Set<string>();
  /** Decisions made during this call, so a cache smaller than the body cannot lose them. */
  private readonly local = new Map<string, boolean>();
  /** Strings shaped like JSON met during this call, parsed once for every pass (null: not JSON after all). */
  private readonly texts = new Map<string, EmbeddedJson | null>();
  /** Object members walked since the innermost JSON text began (see `text`). */
  private members = 0;

  constructor(private readonly decisions: NameDecisions) {}

  /** The undecided names met so far (and forgets them). */
  take(): string[] {
    const names = [...this.undecided];
    this.undecided.clear();
    return names;
  }

  /** Records the classifier's answer (one "1"/"0" per name) for this call and in the shared cache. */
  decide(names: readonly string[], answer: string): void {
    takeAnswer(names, answer, this.local, this.decisions);
  }

  value(value: unknown, depth: number): unknown {
    if (typeof value === "string") return this.text(value, depth);
    // An ExactNumber is a number (its own fields are no field names of the body).
    if (value === null || typeof value !== "object" || value instanceof ExactNumber) return value;
    if (depth > MAX_NESTING_DEPTH) throw new SandboxError("sandbox_too_deep", `body nests deeper than ${MAX_NESTING_DEPTH} levels; redaction refused`);
    return Array.isArray(value) ? this.array(value, depth) : this.object(value as Record<string, unknown>, depth);
  }

  /**
   * A string holding a JSON object or array is walked as that value, at the string's own depth
   * (so the nesting limit counts its levels as if they were the body's). It is kept as it was
   * only when nothing in it was redacted and it hides nothing: a text whose duplicate names
   * shadow a value (which redaction never sees) is stored as its parsed value, serialized.
   */
  private text(text: string, depth: number): string {
    if (!mayHoldJson(text)) return text;
    let embedded = this.texts.get(text);
    if (embedded === undefined) this.texts.set(text, (embedded = parseEmbeddedJson(text)));
    if (embedded === null) return text;
    const outer = this.members;
    this.members = 0;
    const out = this.value(embedded.value, depth);
    const walked = this.members;
    this.members = outer;
    return out === embedded.value && walked === embedded.members() ? text : JSON.stringify(out);
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
    // for-in, not Object.keys: no array of names per object. Every body is a plain object (JSON.parse,
    // form and query fields, parsed XML), whose prototype carries no enumerable names.
    for (const key in fields) {
      this.members++;
      const value = fields[key];
      const next = this.matches(key) ? REDACTED : this.value(value, depth + 1);
      if (next !== value && out === null) out = copyBefore(fields, key);
      if (out !== null) put(out, key, next);
    }
    return out ?? fields;
  }

  private matches(name: string): boolean {
    const known = this.decisions.get(name) ?? this.local.get(name);
    if (known !== undefined) return known;
    this.undecided.add(name);
    return false;
  }
}

/** A new object with the fields of `fields` that come before `stop`, in order. */
function copyBefore(fields: Record<string, unknown>, stop: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in fields) {
    if (key === stop) break;
    put(out, key, fields[key]);
  }
  return out;
}

// `out[key] = value` with key "__proto__" would set the prototype instead of a field.
function put(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
