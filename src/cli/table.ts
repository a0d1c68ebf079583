/**
 * Rows as aligned columns under a header, for people reading a terminal (scripts use `--json`).
 * The last column is not padded, so long URLs do not drag trailing spaces along.
 *
 * @example
 * formatTable(["NAME", "ID"], [["orders", "0193…"]]) // "NAME    ID\norders  0193…"
 */
export function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}
