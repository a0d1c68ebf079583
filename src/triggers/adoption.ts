import { timingSafeEqual } from "../auth/timing_safe_equal.ts";
import { isArmed } from "../records/arm_window.ts";
import type { TriggerRecord } from "../records/trigger.ts";

/** What a provider's handshake that offers a secret does to its trigger (README "Trust on first use"). */
export type Adoption =
  /** The trigger is armed: the offered secret is its secret from now on, and the armed window ends. */
  | "adopted"
  /** Not armed, and the offer is the secret already adopted (a retried set-up): answered, nothing changes. */
  | "already_adopted"
  /** Not armed, and the offer is another secret (or the trigger has none): the uniform 401. */
  | "not_armed";

/**
 * Decides a handshake's offer at `now`. Only an armed trigger takes a new secret, so a stranger
 * who learns the URL after the set-up cannot hand it one of theirs.
 *
 * @example
 * ```ts
 * adoptionOf({ appSecret: null, armedUntil: "2026-03-01T12:15:00.000Z" }, "s1", new Date("2026-03-01T12:00:00Z")); // "adopted"
 * ```
 */
export function adoptionOf(trigger: Pick<TriggerRecord, "appSecret" | "armedUntil">, offered: string, now: Date): Adoption {
  if (isArmed(trigger.armedUntil, now)) return "adopted";
  return trigger.appSecret !== null && timingSafeEqual(offered, trigger.appSecret) ? "already_adopted" : "not_armed";
}
