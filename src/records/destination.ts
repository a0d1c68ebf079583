import { Type, type Static } from "@sinclair/typebox";
import { WorkflowSchema, type WorkflowConfig } from "./workflow.ts";

/**
 * Delivery to several destinations (README "Destinations"): each accepted request makes one run
 * per destination its filter selects, and each destination has its own queue, limits, breaker
 * and pause.
 */

/** `[a-z0-9-]{1,40}`, unique in the trigger. */
export const DESTINATION_NAME_PATTERN = "^[a-z0-9-]{1,40}$";
/** The name of the one destination the `workflow` shorthand stands for. */
export const DEFAULT_DESTINATION = "default";
export const MAX_DESTINATIONS = 16;
/** A destination's concurrency when it declares none. */
export const DEFAULT_CONCURRENCY = 2;
export const DEFAULT_BREAKER = { failures: 5, openSeconds: 30 } as const;

export const DestinationFilterSchema = Type.Object(
  {
    mode: Type.Optional(Type.Union([Type.Literal("include"), Type.Literal("exclude")])),
    expression: Type.String({ minLength: 1, maxLength: 2000 }),
  },
  { additionalProperties: false, description: "present = on: an RFC 9535 filter on the redacted body choosing whether this destination gets a run" },
);

export const TransformSchema = Type.Object(
  {
    source: Type.String({ minLength: 1, maxLength: 65_536, description: "an ES module: export default ($trigger, ctx) => ({ body, headers }) or null" }),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: "default 200" })),
  },
  { additionalProperties: false },
);

export const DestinationSchema = Type.Object(
  {
    name: Type.String({
      pattern: DESTINATION_NAME_PATTERN,
      description: "lower-case letters, digits and hyphens, 1..40; unique in the trigger; each run carries it as destination",
    }),
    workflow: Type.Union(WorkflowSchema.anyOf, {
      description: "what this destination's runs do, as the trigger's workflow (orderingKey orders this destination's runs)",
    }),
    filter: Type.Optional(DestinationFilterSchema),
    transform: Type.Optional(TransformSchema),
    rateLimit: Type.Optional(
      Type.Object(
        { perSecond: Type.Number({ minimum: 0.01, maximum: 10_000 }) },
        { additionalProperties: false, description: "at most this many run starts per second (below 1: one start per 1/perSecond seconds), across instances" },
      ),
    ),
    concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 64, description: "runs at once; default 2" })),
    breaker: Type.Optional(
      Type.Object(
        { failures: Type.Integer({ minimum: 0, maximum: 1000 }), openSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 600 })) },
        {
          additionalProperties: false,
          description: "http destinations: open after this many consecutive failed attempts; failures 0 turns it off. Default { failures: 5, openSeconds: 30 }",
        },
      ),
    ),
    respond: Type.Optional(Type.Boolean({ description: "this destination authors the workflow response (at most one)" })),
  },
  { additionalProperties: false, description: "one place a trigger's accepted requests go: a run per request its filter selects" },
);

export type DestinationConfig = Static<typeof DestinationSchema>;

/** A trigger's destinations as it is stored: explicit, or the `workflow` shorthand. */
export interface Deliveries {
  workflow: WorkflowConfig;
  /** Absent: the trigger uses the `workflow` shorthand (one destination named `default`). */
  destinations?: DestinationConfig[];
}

/**
 * The destinations a trigger delivers to: its `destinations`, or the one `default` destination its
 * `workflow` stands for. The shorthand's destination has no limit of its own (no `concurrency`),
 * so a trigger made before destinations existed delivers as it did, sharing the server's run
 * concurrency fairly with the others.
 */
export function destinationsOf(trigger: Deliveries): DestinationConfig[] {
  return trigger.destinations ?? [{ name: DEFAULT_DESTINATION, workflow: trigger.workflow }];
}

/** The destination of a run, by name (a run made before destinations existed belongs to `default`). */
export function destinationOf(trigger: Deliveries, name: string | null | undefined): DestinationConfig | undefined {
  return destinationsOf(trigger).find((d) => d.name === (name ?? DEFAULT_DESTINATION));
}

/** The destination whose run authors the workflow response: the one with `respond`, or the only one. */
export function respondingDestination(trigger: Deliveries): DestinationConfig | undefined {
  const all = destinationsOf(trigger);
  return all.find((d) => d.respond) ?? (all.length === 1 ? all[0] : undefined);
}
