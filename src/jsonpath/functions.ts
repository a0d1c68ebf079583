// RFC 9535 §2.4 function extensions: their declared types (checked at parse time) and their
// behaviour. `undefined` stands for Nothing throughout the evaluator.
import type { FunctionName } from "./ast.ts";
import { compileIRegexp } from "./iregexp.ts";
import { ExactNumber } from "../json/exact_number.ts";

export type ParamType = "value" | "logical" | "nodes";

export interface FunctionSignature {
  readonly params: readonly ParamType[];
  readonly result: ParamType;
}

export const FUNCTIONS: Readonly<Record<FunctionName, FunctionSignature>> = {
  length: { params: ["value"], result: "value" },
  count: { params: ["nodes"], result: "value" },
  match: { params: ["value", "value"], result: "logical" },
  search: { params: ["value", "value"], result: "logical" },
  value: { params: ["nodes"], result: "value" },
};

export function isFunctionName(name: string): name is FunctionName {
  return Object.hasOwn(FUNCTIONS, name);
}

/** length(): code points of a string, elements of an array, members of an object. */
export function lengthOf(value: unknown): number | undefined {
  if (typeof value === "string") {
    let n = value.length;
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) {
        const next = value.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          n--;
          i++;
        }
      }
    }
    return n;
  }
  if (Array.isArray(value)) return value.length;
  if (typeof value === "object" && value !== null && !(value instanceof ExactNumber)) return Object.keys(value).length;
  return undefined;
}

/** value(): the value of a one-node nodelist, else Nothing. */
export function singleValue(values: readonly unknown[]): unknown {
  return values.length === 1 ? values[0] : undefined;
}

/** match() (whole string) and search() (any substring); a non-I-Regexp pattern is false. */
export function regexTest(value: unknown, pattern: unknown, whole: boolean): boolean {
  if (typeof value !== "string" || typeof pattern !== "string") return false;
  const re = compileIRegexp(pattern, whole);
  return re !== null && re.test(value);
}
