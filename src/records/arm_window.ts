/**
 * Trust on first use (README "Trust on first use"): a trigger whose provider hands its secret
 * over in an unsigned first request adopts one only while it is armed, for this long after it is
 * created or armed. Whoever learns the URL later cannot make it theirs.
 */
export const ARM_WINDOW_MS = 15 * 60 * 1000;

/** The end of an armed window that starts at `now`, ISO. */
export const armedUntilFrom = (now: Date): string => new Date(now.getTime() + ARM_WINDOW_MS).toISOString();

/** Whether a trigger armed until `armedUntil` (null or absent: not armed) is armed at `now`. */
export const isArmed = (armedUntil: string | null | undefined, now: Date): boolean => !!armedUntil && Date.parse(armedUntil) > now.getTime();
