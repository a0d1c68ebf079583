import type { TriggerRecord } from "../records/trigger.ts";

/**
 * The Activity detail of a handshake refused because its trigger is not armed (README "Trust on
 * first use"): what happened, and how the owner lets the provider's set-up through.
 */
export function notArmedReason(trigger: Pick<TriggerRecord, "id" | "app">): string {
  const app = trigger.app ?? "the provider";
  return (
    `${app} handshake offered a new secret, but the trigger is not armed (a trigger is armed for 15 minutes after it is created or armed): ` +
    `if this set-up is yours, arm the trigger (Arm in its settings in the panel, POST /api/triggers/${trigger.id}/arm or inlet triggers arm ${trigger.id}) ` +
    `and repeat the set-up in ${app} within 15 minutes`
  );
}
