import { parseJson } from "../json/index.ts";

/**
 * A body or a result as it crosses to or from a sandbox worker: the value itself (structured
 * cloning), or its JSON text when it holds an ExactNumber. Such a value refuses to be cloned (see
 * `ExactNumber.raw`) rather than arrive as a plain `{ text }` object, and its text keeps its
 * numbers exactly. Every other value crosses as before, at no extra cost.
 */
export type Crossing = { value: unknown } | { json: string };

/** Posts the message `build` makes of `value`, as JSON text when the value cannot be cloned. */
export function postCrossing(port: { postMessage(message: unknown): void }, value: unknown, build: (crossing: Crossing) => unknown): void {
  try {
    port.postMessage(build({ value }));
  } catch (error) {
    if ((error as Error | null)?.name !== "DataCloneError") throw error;
    port.postMessage(build({ json: JSON.stringify(value) }));
  }
}

/** The value a crossing carries. */
export function arrived(crossing: Crossing): unknown {
  return "json" in crossing ? parseJson(crossing.json) : crossing.value;
}
