// Output is written with Bun.write and awaited before exit: process.exit() would cut a pending pipe
// write short. Each write starts once the one before it has finished: to a regular file, writes
// started together land in any order.
let written: Promise<unknown> = Promise.resolve();
const write = (to: typeof Bun.stdout, text: string) => {
  written = written.then(() => Bun.write(to, text));
};

/** Prints a line (a string as is, anything else as indented JSON) to stdout. */
export const print = (value: unknown) => write(Bun.stdout, (typeof value === "string" ? value : JSON.stringify(value, null, 2)) + "\n");

/** Resolves once everything printed is written. */
export const flushOutput = () => written;

/** Prints lines to stderr (warnings; errors are written by the command runner). */
export const printWarnings = (lines: string[]) => {
  if (lines.length) write(Bun.stderr, lines.join("\n") + "\n");
};
