// Runs inside QuickJS (bundled by `bundleGuest`), never on the host: user patterns may
// backtrack catastrophically, and only QuickJS's regex engine polls the deadline.

/** A trigger's patterns, compiled: one alternation when that means the same, else each alone. */
type Compiled = { combined: RegExp } | { each: RegExp[] };

/** "" when the pattern (JSON text) compiles with the `i` flag, else the engine's reason. */
function check(patternJson: string): string {
  try {
    new RegExp(JSON.parse(patternJson) as string, "i");
    return "";
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  }
}

// `(?:p1)|(?:p2)` matches a name exactly when one of the patterns does, and runs about 5× faster
// than ten separate tests, unless a pattern refers to a group by number or name: its numbers
// would shift, and `\k` parses differently once any named group exists. Those keep separate.
const REFERS_TO_GROUP = /\\[1-9]|\\k/;

function compile(patternsJson: string): Compiled {
  const patterns = JSON.parse(patternsJson) as string[];
  const each = patterns.map((pattern) => new RegExp(pattern, "i"));
  if (patterns.some((pattern) => REFERS_TO_GROUP.test(pattern))) return { each };
  try {
    return { combined: new RegExp(patterns.map((pattern) => `(?:${pattern})`).join("|"), "i") };
  } catch {
    return { each }; // e.g. two patterns naming a group alike
  }
}

/** One character per name (names as a JSON array): "1" when any pattern matches it, else "0". */
function classify(compiled: Compiled, namesJson: string): string {
  const names = JSON.parse(namesJson) as string[];
  let out = "";
  for (const name of names) out += matches(compiled, name) ? "1" : "0";
  return out;
}

function matches(compiled: Compiled, name: string): boolean {
  if ("combined" in compiled) return compiled.combined.test(name);
  for (const pattern of compiled.each) if (pattern.test(name)) return true;
  return false;
}

(globalThis as unknown as Record<string, unknown>).inletRedact = { check, compile, classify };
