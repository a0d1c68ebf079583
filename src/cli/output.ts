// Output is written with Bun.write and awaited before exit: process.exit() would cut a pending pipe write short.
const pending: Promise<unknown>[] = [];

/** Prints a line (a string as is, anything else as indented JSON) to stdout. */
export const print = (value: unknown) => {
  pending.push(Bun.write(Bun.stdout, (typeof value === "string" ? value : JSON.stringify(value, null, 2)) + "\n"));
};

/** Resolves once everything printed is written. */
export const flushOutput = () => Promise.all(pending.splice(0));

/** Prints lines to stderr (warnings; errors are written by the command runner). */
export const printWarnings = (lines: string[]) => {
  if (lines.length) pending.push(Bun.write(Bun.stderr, lines.join("\n") + "\n"));
};
