import type { TriggerRecord } from "../records/trigger.ts";

/** What `POST /api/triggers/:id/arm` (and `inlet triggers arm`) did. */
export type ArmResult =
  | { kind: "armed"; armedUntil: string; trigger: TriggerRecord }
  /** The trigger takes no secret from a handshake: there is nothing to arm (409). */
  | { kind: "not_armable"; code: "not_armable"; message: string };

/** Why a trigger that adopts no secret cannot be armed, and which ones can. */
export function notArmable(trigger: Pick<TriggerRecord, "app">): ArmResult {
  const what = trigger.app === null ? "a generic trigger" : `an app trigger of ${trigger.app}, whose secret is pasted or generated,`;
  return {
    kind: "not_armable",
    code: "not_armable",
    message: `this is ${what} and takes no secret from a handshake: there is nothing to arm (only triggers whose provider hands its secret over on first contact, such as Asana and Notion, are armed)`,
  };
}
