import { Type, type Static } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { schemaErrors, ValidationError } from "../triggers/validation_error.ts";

/** At most this many runs or requests in one bulk replay call. */
export const MAX_BULK_REPLAY = 100_000;
export const DEFAULT_BULK_LIMIT = 1000;

const FilterChoice = Type.Union([Type.Literal("apply"), Type.Literal("skip")], { description: "apply: the current filter decides; skip: bypass it" });

/** `POST /api/triggers/:id/activity/:activityId/replay` (docs/api.md#replay). */
export const ReplayRequestSchema = Type.Object({ filter: Type.Optional(FilterChoice) }, { additionalProperties: false });

/** `POST /api/triggers/:id/replay` (docs/api.md#replay). */
export const BulkReplaySchema = Type.Object(
  {
    source: Type.Optional(Type.Union([Type.Literal("runs"), Type.Literal("filtered")])),
    status: Type.Optional(
      Type.Array(Type.Union([Type.Literal("queued"), Type.Literal("running"), Type.Literal("succeeded"), Type.Literal("failed"), Type.Literal("skipped")]), {
        minItems: 1,
        maxItems: 5,
        description: 'runs in any of these states; default ["failed"]',
      }),
    ),
    since: Type.Optional(Type.String({ description: "ISO-8601 date-time" })),
    until: Type.Optional(Type.String({ description: "ISO-8601 date-time" })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_BULK_REPLAY })),
    dryRun: Type.Optional(Type.Boolean()),
    filter: Type.Optional(FilterChoice),
    destinations: Type.Optional(
      Type.Array(Type.String({ pattern: "^[a-z0-9-]{1,40}$" }), {
        minItems: 1,
        maxItems: 16,
        description: "only these destinations: runs of them (source runs), or runs made for them (source filtered)",
      }),
    ),
  },
  { additionalProperties: false },
);

/** What a bulk replay answers: how many matched, how many were replayed, and the new runs. */
export const BulkReplayResultSchema = Type.Object({
  matched: Type.Integer({ minimum: 0 }),
  replayed: Type.Integer({ minimum: 0 }),
  runIds: Type.Array(Type.String()),
});

export type BulkReplayInput = Static<typeof BulkReplaySchema>;
export type BulkReplay = Required<Pick<BulkReplayInput, "source" | "limit" | "dryRun" | "filter">> & {
  status: NonNullable<BulkReplayInput["status"]>;
  destinations?: string[];
  sinceMs?: number;
  untilMs?: number;
};

const requestCheck = TypeCompiler.Compile(ReplayRequestSchema);
const bulkCheck = TypeCompiler.Compile(BulkReplaySchema);

/** The one-request replay body; empty means `{"filter":"apply"}`. */
export function replayRequestOf(input: unknown): { filter: "apply" | "skip" } {
  const value = input ?? {};
  if (!requestCheck.Check(value)) throw new ValidationError(schemaErrors(requestCheck, value));
  return { filter: value.filter ?? "apply" };
}

/** An ISO-8601 date, or date-time with an optional offset: `Date.parse` alone takes "1" or "Jan 5 2026", and rolls 2026-02-30 over to March. */
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?)?$/;

const timeOf = (text: unknown, path: string, details: Array<{ path: string; message: string }>) => {
  if (typeof text !== "string") return undefined;
  const parts = ISO_8601.exec(text);
  const [year, month, day] = (parts ?? []).slice(1).map(Number);
  const ms = parts && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day && month <= 12 ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) details.push({ path, message: `must be an ISO-8601 date-time, for example 2026-01-31T00:00:00Z (got ${JSON.stringify(text)})` });
  return ms;
};

/**
 * Checks a bulk replay body and fills in its defaults (source runs, status failed, limit 1000,
 * filter apply). Without `status` only failed runs are replayed: replaying succeeded or in-flight
 * runs re-executes their workflow, which a caller asks for by name.
 */
export function bulkReplayOf(input: unknown): BulkReplay {
  const given = input ?? {};
  // Every problem at once: the schema's, then the dates' and the fields' that go together.
  const details: Array<{ path: string; message: string }> = bulkCheck.Check(given) ? [] : schemaErrors(bulkCheck, given);
  // Not an object (an array has a `filter` method): the schema's one detail says so.
  const value = (typeof given === "object" && !Array.isArray(given) ? given : {}) as BulkReplayInput;
  const source = value.source ?? "runs";
  if (source === "filtered" && Array.isArray(value.status) && value.status.length)
    details.push({ path: "/status", message: 'filters runs by their status: leave it out with source "filtered"' });
  if (source === "runs" && value.filter !== undefined)
    details.push({ path: "/filter", message: 'applies to filtered requests: use it with source "filtered"' });
  const sinceMs = timeOf(value.since, "/since", details);
  const untilMs = timeOf(value.until, "/until", details);
  if (sinceMs !== undefined && untilMs !== undefined && sinceMs > untilMs) details.push({ path: "/until", message: "must not be before since" });
  if (details.length) throw new ValidationError(details);
  return {
    source,
    status: value.status ?? (source === "runs" ? ["failed"] : []),
    limit: value.limit ?? DEFAULT_BULK_LIMIT,
    dryRun: value.dryRun ?? false,
    filter: value.filter ?? "apply",
    ...(value.destinations ? { destinations: value.destinations } : {}),
    ...(sinceMs === undefined ? {} : { sinceMs }),
    ...(untilMs === undefined ? {} : { untilMs }),
  };
}
