/**
 * Comments cite what a clone of the repository holds: `docs/<page>.md#<heading>` or a README
 * section. Documents that stayed outside it (the design contract and spec, research notes, the
 * original brief's numbered rules) are not there to follow, so a citation of one is a dead end.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

const ROOT = join(import.meta.dir, "..");

const OUTSIDE = [/\bCONTRACT\s§/, /\bSPEC\s§/, /\bSPEC\.md\b/, /\bresearch\//, /\bresearch\s§/, /\bseed\srule/i];

/** This file names the patterns in its own test. */
const SELF = "test/no_outside_citations.test.ts";

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else if (/\.(ts|js|mjs|css)$/.test(name)) out.push(path);
  }
  return out;
}

/** Each line of `text` that cites an outside document, as `path:line: text`. */
function outsideCitations(path: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => (OUTSIDE.some((re) => re.test(line)) ? [`${path}:${i + 1}: ${line.trim()}`] : []));
}

test("outside citations are recognised, and a crypto seed or a SPEC constant is not one", () => {
  for (const line of ["// CONTRACT §6.4", "// SPEC §Limits", "// see SPEC.md", "// research/baseline.md", "// research §3", "// seed rule 5"]) {
    expect(outsideCitations("x.ts", line)).toHaveLength(1);
  }
  for (const line of ["// a 32-byte seed as 64 hex digits", "const SPEC = { header: 'x' };", "// docs/api.md#answers"]) {
    expect(outsideCitations("x.ts", line)).toEqual([]);
  }
});

test("no file under src, plugins, test or scripts cites a document outside the repository", () => {
  const found = ["src", "plugins", "test", "scripts"]
    .flatMap((dir) => filesUnder(join(ROOT, dir)))
    .map((path) => relative(ROOT, path).split(sep).join("/"))
    .filter((path) => path !== SELF)
    .flatMap((path) => outsideCitations(path, readFileSync(join(ROOT, path), "utf8")));
  expect(found).toEqual([]);
});
