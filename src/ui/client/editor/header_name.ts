/** The seed's Header Name rule: letters, digits and hyphens only. */
export function headerNameProblem(value: string, what = "a header name"): string | null {
  if (value === "") return `Enter ${what}.`;
  const bad = [...new Set(value.replace(/[A-Za-z0-9-]/g, ""))];
  if (bad.length) {
    const shown = bad.map((c) => (c === " " ? "space" : `“${c}”`)).join(", ");
    return `Use only letters, digits and hyphens (not ${shown}).`;
  }
  if (value.length > 128) return "Use at most 128 characters.";
  return null;
}
