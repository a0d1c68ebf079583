import { Type, type Static } from "@sinclair/typebox";

/** A trigger's alert rules, at most 10 (docs/api.md#alerts). */
export const AlertRuleSchema = Type.Union([
  Type.Object({ kind: Type.Literal("silence"), seconds: Type.Integer({ minimum: 1, maximum: 604_800 }) }, { additionalProperties: false }),
  Type.Object(
    { kind: Type.Literal("auth_failures"), count: Type.Integer({ minimum: 1, maximum: 1_000_000 }), seconds: Type.Integer({ minimum: 1, maximum: 604_800 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal("run_failures"), count: Type.Integer({ minimum: 1, maximum: 1_000_000 }), seconds: Type.Integer({ minimum: 1, maximum: 604_800 }) },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal("backlog"), count: Type.Integer({ minimum: 1, maximum: 1_000_000 }) }, { additionalProperties: false }),
  Type.Object(
    {
      kind: Type.Literal("destination_open"),
      seconds: Type.Integer({ minimum: 1, maximum: 604_800, description: "fires once one of the trigger's destinations has had its breaker open this long" }),
    },
    { additionalProperties: false },
  ),
]);
export const AlertRulesSchema = Type.Array(AlertRuleSchema, { maxItems: 10 });
/** Every rule's kind, from the rules themselves: what an alert's state (`GET /api/alerts`) may name. */
export const AlertKindSchema = Type.Union(AlertRuleSchema.anyOf.map((rule) => rule.properties.kind));
export type AlertRule = Static<typeof AlertRuleSchema>;
export type AlertKind = AlertRule["kind"];
export type AlertState = "ok" | "firing";

/** One rule's state machine, as stored (`GET /api/alerts`, docs/api.md#alerts). */
export interface AlertRecord {
  /** `<triggerId>/<rule key>`: a rule keeps its state while the trigger keeps the rule. */
  id: string;
  triggerId: string;
  kind: AlertKind;
  state: AlertState;
  /** When the current state began. */
  since: string;
  value: number;
  threshold: number;
  /** When the last transition's notification was delivered, else null. */
  notifiedAt: string | null;
}

/** A notification waiting to be delivered (an outbox row, one per transition). */
export interface AlertNotification {
  id: string;
  alertId: string;
  payload: string;
  attempts: number;
}

/** The rule's identity within its trigger: its kind and numbers. */
export const ruleKey = (rule: AlertRule) => `${rule.kind}:${"count" in rule ? rule.count : ""}:${"seconds" in rule ? rule.seconds : ""}`;

/** What a rule's measure is compared with. */
export const thresholdOf = (rule: AlertRule) => ("count" in rule ? rule.count : rule.seconds);
