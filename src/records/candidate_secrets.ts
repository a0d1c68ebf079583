/** The secrets a request may be verified with at `now`: the current one, then the previous one while its overlap lasts. */
export function candidateSecrets(current: string | null, previous: string | null | undefined, expiresAt: string | undefined, now: Date): string[] {
  const out = current ? [current] : [];
  if (previous && expiresAt && Date.parse(expiresAt) > now.getTime()) out.push(previous);
  return out;
}
