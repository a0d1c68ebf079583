import { readBodyLimited } from "../net/limited_body.ts";
import { UnknownCursor } from "../store/errors.ts";
import { ValidationError } from "../triggers/validation_error.ts";

const decoder = new TextDecoder();

/**
 * Reads a JSON request body for the management API, at most `limit` bytes (past it, declared or
 * streamed: BodyTooLarge, a 413); a body that does not parse is a 400. Bodies are read only here,
 * after the admin token was checked: nobody else can make the server buffer one. `parse` reads the
 * text (a check's sample is read with `parseJson`, its numbers exact, as a live body's are).
 */
export async function readJson(request: Request, limit: number, parse: (text: string) => unknown = JSON.parse): Promise<unknown> {
  const value = await readOptionalJson(request, limit, parse);
  if (value === undefined) throw new ValidationError([{ path: "", message: "the body is empty; send a JSON object" }]);
  return value;
}

/** Like {@link readJson}, but an empty body is `undefined` (calls whose fields all have defaults). */
export async function readOptionalJson(request: Request, limit: number, parse: (text: string) => unknown = JSON.parse): Promise<unknown> {
  const text = decoder.decode(await readBodyLimited(request, limit));
  if (text.trim() === "") return undefined;
  try {
    return parse(text);
  } catch (error) {
    throw new ValidationError([{ path: "", message: `the body is not valid JSON: ${(error as Error).message}` }]);
  }
}

/** `limit` and `before` of a list call (limit defaults to 50, at most 500: docs/api.md#paging). */
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

/** A page of a list already in memory, newest first: the items after the one whose id is `before`, at most `limit` (none: all). */
export function pageAfter<T extends { id: string }>(items: T[], before: string | undefined, limit: number | undefined, what: string): T[] {
  let start = 0;
  if (before !== undefined) {
    start = items.findIndex((item) => item.id === before) + 1;
    if (start === 0) throw new UnknownCursor(`before: no ${what} with id ${JSON.stringify(before)}`);
  }
  return items.slice(start, limit === undefined ? undefined : start + limit);
}
