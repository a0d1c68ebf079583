// A guest program for the sandbox's own tests: each function exercises one limit.

function echo(text: string): string {
  return text;
}

function compileRegex(sourceJson: string): RegExp {
  return new RegExp(JSON.parse(sourceJson) as string, "i");
}

function test(pattern: RegExp, inputJson: string): string {
  return pattern.test(JSON.parse(inputJson) as string) ? "1" : "0";
}

function spin(): string {
  for (;;) {
    // runs until interrupted
  }
}

function hoard(): string {
  const chunks: string[] = [];
  for (let i = 0; ; i++) chunks.push(`${i}`.repeat(1024));
}

/** Like hoard, but keeps what it took: the heap stays full after the call. */
function leak(): string {
  const kept: string[] = [];
  (globalThis as unknown as { kept: string[] }).kept = kept;
  for (let i = 0; ; i++) kept.push(`${i}`.repeat(1024));
}

function recurse(): string {
  const down = (n: number): number => down(n + 1) + 1;
  return String(down(0));
}

function roundTrip(json: string): string {
  return JSON.stringify(JSON.parse(json));
}

function fail(message: string): string {
  throw new TypeError(message);
}

(globalThis as unknown as Record<string, unknown>).sandboxFixture = { echo, compileRegex, test, spin, hoard, leak, recurse, roundTrip, fail };
