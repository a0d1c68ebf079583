/**
 * The JSON shapes of the management API (docs/api.md#management-api) as the panel reads them: derived from
 * the server's TypeBox schemas, never re-declared. Type-only imports: nothing of the server
 * enters the client bundle.
 */
import type { Static } from "@sinclair/typebox";
import type { ActivityRowSchema, AlertSchema, PluginSchema, RunSchema, ValidationDetailSchema } from "../../http/api_schemas.ts";
import type { DestinationStatusSchema } from "../../http/api/destinations.ts";
import type { TransformTestResultSchema } from "../../http/api/transform.ts";
import type { TriggerSchema } from "../../records/trigger_schemas.ts";
import type { BulkReplayResultSchema } from "../../replay/replay_input.ts";

export type Trigger = Static<typeof TriggerSchema>;
export type AuthType = Trigger["auth"]["type"];
export type DedupStrategy = Trigger["dedup"]["strategy"];
export type Method = Trigger["methods"][number];
export type Plugin = Static<typeof PluginSchema>;
export type ActivityRow = Static<typeof ActivityRowSchema>;
export type ActivityOutcome = ActivityRow["outcome"];
export type Run = Static<typeof RunSchema>;
export type BulkReplayResult = Static<typeof BulkReplayResultSchema>;
export type ValidationDetail = Static<typeof ValidationDetailSchema>;
export type Alert = Static<typeof AlertSchema>;
export type AlertRule = Trigger["alerts"][number];
export type Destination = Trigger["destinations"][number];
export type DestinationStatus = Static<typeof DestinationStatusSchema>;
export type TransformTestResult = Static<typeof TransformTestResultSchema>;
