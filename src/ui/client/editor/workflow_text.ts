/** The Workflow region's one-per-line text fields: a command's argv and an http workflow's request headers. */

/** The non-empty lines of `text`, trimmed. */
export const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");

/** `Name: value` lines → a headers object; a line without a colon is reported by its number. */
export function parseHeaders(text: string): { headers: Record<string, string> } | { problem: string } {
  const headers: Record<string, string> = {};
  for (const [i, line] of lines(text).entries()) {
    const colon = line.indexOf(":");
    if (colon <= 0) return { problem: `Line ${i + 1}: write Name: value.` };
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { headers };
}

export function headersProblem(text: string): string | null {
  const parsed = parseHeaders(text);
  return "problem" in parsed ? parsed.problem : null;
}
