/** Small helpers shared by unit tests. */

/** The error `run` throws; fails the test when it throws none. */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

/** `{next: {next: … leaf}}`, `depth` levels deep (for nesting limits). */
export function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 1; i < depth; i++) value = { next: value };
  return value;
}
