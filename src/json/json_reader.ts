// A JSON parser that keeps numbers exactly, for engines whose JSON.parse does not give a reviver
// the source text (QuickJS). Only texts that may hold such numbers come here (see
// `mayHoldInexactNumbers`), and they come already known to be valid JSON (the host wrote or
// parsed them), nested at most 256 levels (the host's bound), so recursion is bounded.
import { jsonNumber } from "./decimal.ts";

/** What `readJsonExactly` read: the value, and how many numbers it kept as ExactNumber. */
export interface ReadJson {
  value: unknown;
  exactNumbers: number;
}

/** Parses a JSON text, numbers that a double cannot hold kept as ExactNumber; throws a SyntaxError when it is not JSON. */
export function readJsonExactly(text: string): ReadJson {
  const reader = new Reader(text);
  reader.blank();
  const value = reader.value();
  reader.blank();
  if (reader.at < text.length) reader.fail("unexpected text after the JSON value");
  return { value, exactNumbers: reader.exactNumbers };
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const PLAIN_STRING = /"[^"\\\u0000-\u001f]*"/y;

class Reader {
  at = 0;
  exactNumbers = 0;

  constructor(private readonly text: string) {}

  fail(message: string): never {
    throw new SyntaxError(`JSON: ${message} at position ${this.at}`);
  }

  blank(): void {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.at++;
    }
  }

  value(): unknown {
    const c = this.text.charCodeAt(this.at);
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.array();
    if (c === 0x22) return this.string();
    if (this.word("true")) return true;
    if (this.word("false")) return false;
    if (this.word("null")) return null;
    return this.number();
  }

  private word(word: string): boolean {
    if (!this.text.startsWith(word, this.at)) return false;
    this.at += word.length;
    return true;
  }

  private match(pattern: RegExp): string | null {
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text);
    if (found === null) return null;
    this.at += found[0].length;
    return found[0];
  }

  private number(): unknown {
    const text = this.match(NUMBER);
    if (text === null) this.fail("expected a JSON value");
    const value = jsonNumber(text);
    if (typeof value !== "number") this.exactNumbers++;
    return value;
  }

  string(): string {
    const plain = this.match(PLAIN_STRING);
    if (plain !== null) return plain.slice(1, -1);
    const escaped = this.match(STRING);
    if (escaped === null) this.fail("expected a string");
    return JSON.parse(escaped) as string;
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.at++;
    this.blank();
    if (this.text.charCodeAt(this.at) === 0x5d) {
      this.at++;
      return out;
    }
    for (;;) {
      this.blank();
      out.push(this.value());
      this.blank();
      const c = this.text.charCodeAt(this.at++);
      if (c === 0x5d) return out;
      if (c !== 0x2c) this.fail("expected , or ] in an array");
    }
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.at++;
    this.blank();
    if (this.text.charCodeAt(this.at) === 0x7d) {
      this.at++;
      return out;
    }
    for (;;) {
      this.blank();
      if (this.text.charCodeAt(this.at) !== 0x22) this.fail("expected a member name");
      const name = this.string();
      this.blank();
      if (this.text.charCodeAt(this.at++) !== 0x3a) this.fail("expected : after a member name");
      this.blank();
      const value = this.value();
      // As JSON.parse: "__proto__" is a member like any other, and the last of duplicate names wins.
      if (name === "__proto__") Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
      else out[name] = value;
      this.blank();
      const c = this.text.charCodeAt(this.at++);
      if (c === 0x7d) return out;
      if (c !== 0x2c) this.fail("expected , or } in an object");
    }
  }
}
