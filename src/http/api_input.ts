import { ValidationError } from "../triggers/validation_error.ts";

/** Reads a JSON request body for the management API; a body that does not parse is a 400. */
export async function readJson(request: Request): Promise<unknown> {
  const value = await readOptionalJson(request);
  if (value === undefined) throw new ValidationError([{ path: "", message: "the body is empty; send a JSON object" }]);
  return value;
}

/** Like {@link readJson}, but an empty body is `undefined` (calls whose fields all have defaults). */
export async function readOptionalJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ValidationError([{ path: "", message: `the body is not valid JSON: ${(error as Error).message}` }]);
  }
}

/** `limit` and `before` of a list call (CONTRACT §3: limit defaults to 50, at most 500). */
export function pageOf(query: Record<string, string | undefined>): { limit: number; before?: string } {
  const details = [];
  let limit = 50;
  if (query.limit !== undefined) {
    if (!/^\d+$/.test(query.limit) || Number(query.limit) < 1 || Number(query.limit) > 500) {
      details.push({ path: "/limit", message: `must be a whole number from 1 to 500 (got ${JSON.stringify(query.limit)})` });
    } else limit = Number(query.limit);
  }
  if (query.before !== undefined && query.before === "") details.push({ path: "/before", message: "must be the id of the last item of the previous page" });
  if (details.length) throw new ValidationError(details);
  return { limit, ...(query.before ? { before: query.before } : {}) };
}
