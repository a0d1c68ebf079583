import { parseJson } from "../../json/index.ts";

/**
 * An API answer's JSON: null when empty or not JSON. Numbers a double cannot hold (an id beyond
 * 2^53 in `$trigger`) are kept as they were stored, so the panel shows them as sent (in browsers
 * with `JSON.rawJSON`; others show the nearest double, as JSON.parse would).
 */
export function readAnswer(text: string): any {
  if (!text) return null;
  try {
    return parseJson(text);
  } catch {
    return null;
  }
}
