// A JSON number a double cannot hold. Pure ES2023 with no imports from outside this folder: the
// same code runs on the host and inside the QuickJS sandbox (bundled with the JSONPath engine).

/** `JSON.rawJSON` where the engine has it (Bun does, QuickJS does not). */
const rawJson = (JSON as unknown as { rawJSON?: (text: string) => object }).rawJSON;

/**
 * A JSON number whose text no double holds exactly: an integer beyond ±2^53
 * (`9007199254740993`), a magnitude beyond a double's range (`1e400`), more digits than a double
 * keeps (`0.1000000000000000055511151231257827`). The body keeps it as its text, so that it is
 * stored and delivered as sent, and keys and comparisons use its exact value (README "Payload
 * rules"). Every other number stays a plain `number`.
 *
 * `JSON.stringify` writes the text as it came (on engines with `JSON.rawJSON`; elsewhere write
 * with `jsonText`). `String()` and template literals give the text too.
 *
 * @example
 * ```ts
 * const id = parseJson('{"id":9007199254740993}').id; // ExactNumber { text: "9007199254740993" }
 * JSON.stringify({ id });                              // '{"id":9007199254740993}'
 * ```
 */
export class ExactNumber {
  /** The number as written in the JSON text it came from. */
  readonly text: string;
  /**
   * The text as `JSON.rawJSON`, what `toJSON` hands `JSON.stringify`. Being an own field, it also
   * makes a value holding an ExactNumber refuse structured cloning (a DataCloneError) instead of
   * arriving in a worker as a plain `{ text }` object: such a value crosses as JSON text.
   */
  readonly raw: object | undefined;

  constructor(text: string) {
    this.text = text;
    this.raw = rawJson?.(text);
  }

  /** The text itself for `JSON.stringify`; without `JSON.rawJSON`, only the nearest double can be written. */
  toJSON(): unknown {
    return this.raw ?? Number(this.text);
  }

  toString(): string {
    return this.text;
  }
}
