/** An ISO time strictly after `previous`, so every change is seen as one even within a millisecond. */
export function laterThan(previous: string): string {
  const now = Date.now();
  const prev = Date.parse(previous);
  return new Date(now > prev ? now : prev + 1).toISOString();
}
