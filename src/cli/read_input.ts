import { readFileSync } from "node:fs";
import { UsageError } from "../config/usage_error.ts";

/** A JSON document from a file, or from stdin with `-`. */
export function readInput(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path === "-" ? 0 : path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${path === "-" ? "stdin" : path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}
