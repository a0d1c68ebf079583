/**
 * What a bulk replay sends as `destinations` (README "Replay"), given the trigger's destinations
 * and those ticked: nothing when all are ticked (the API's default, which also covers runs of a
 * destination removed since), the ticked names otherwise, and null when none is: nothing to ask.
 */
export function replayDestinations(all: readonly string[], ticked: readonly string[]): { destinations?: string[] } | null {
  const chosen = all.filter((name) => ticked.includes(name));
  if (chosen.length === 0) return null;
  return chosen.length === all.length ? {} : { destinations: chosen };
}
