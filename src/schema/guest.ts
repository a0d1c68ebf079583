// Runs inside QuickJS (bundled by `bundleGuest`), never on the host: a JSON Schema `pattern` is
// a user regex that may backtrack catastrophically, and only QuickJS's engine polls the deadline.

const compiled = new Map<string, RegExp>();
const MAX_COMPILED = 256;

function regExpOf(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) {
    // JSON Schema patterns are ECMA-262 regular expressions with Unicode semantics.
    re = new RegExp(pattern, "u");
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(pattern, re);
  }
  return re;
}

/** "" when the pattern (JSON text) compiles with the `u` flag, else the engine's reason. */
function check(patternJson: string): string {
  try {
    new RegExp(JSON.parse(patternJson) as string, "u");
    return "";
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  }
}

/** `[[pattern, [strings…]], …]` as JSON → one "0"/"1" string per pattern, as a JSON array. */
function test(pairsJson: string): string {
  const pairs = JSON.parse(pairsJson) as Array<[string, string[]]>;
  return JSON.stringify(
    pairs.map(([pattern, strings]) => {
      const re = regExpOf(pattern);
      let out = "";
      for (const s of strings) out += re.test(s) ? "1" : "0";
      return out;
    }),
  );
}

(globalThis as unknown as Record<string, unknown>).inletSchema = { check, test };
export {};
