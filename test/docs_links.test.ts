/**
 * The reference in `docs/` is cited by source comments as `docs/<page>.md#<heading>`: every such
 * citation, and every link between the docs and from the README, must name a page that exists and
 * a heading it has. A renamed heading fails here instead of leaving a dead citation.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const ROOT = join(import.meta.dir, "..");

/** GitHub's anchor for a heading: lower-case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Every anchor of a Markdown file's headings (a repeated one gets `-1`, `-2`…), code blocks aside. */
function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const anchor = anchorOf(heading[1]);
    const n = seen.get(anchor) ?? 0;
    seen.set(anchor, n + 1);
    out.add(n === 0 ? anchor : `${anchor}-${n}`);
  }
  return out;
}

const anchors = new Map<string, Set<string>>();
function anchorsIn(file: string): Set<string> {
  let found = anchors.get(file);
  if (!found) anchors.set(file, (found = anchorsOf(readFileSync(file, "utf8"))));
  return found;
}

/** What is wrong with `file` and `anchor` as a link's target, or null. */
function missing(file: string, anchor: string | undefined): string | null {
  if (!existsSync(file)) return "no such file";
  if (anchor && file.endsWith(".md") && !anchorsIn(file).has(anchor)) return `no heading #${anchor}`;
  return null;
}

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, keep));
    else if (keep(name)) out.push(path);
  }
  return out;
}

test("anchors are GitHub's: punctuation dropped, spaces as hyphens, repeats numbered", () => {
  expect(anchorOf("Overload is a 503")).toBe("overload-is-a-503");
  expect(anchorOf("TriggerInput and Trigger")).toBe("triggerinput-and-trigger");
  expect(anchorOf("The run's input")).toBe("the-runs-input");
  expect(anchorOf("Runs: claims and leases")).toBe("runs-claims-and-leases");
  expect([...anchorsOf("# A\n## Files\n```\n# not a heading\n```\n### Files\n")]).toEqual(["a", "files", "files-1"]);
});

test("every link of the docs and of the README names a file and a heading that exist", () => {
  const pages = [join(ROOT, "README.md"), ...filesUnder(join(ROOT, "docs"), (name) => name.endsWith(".md"))];
  const problems: string[] = [];
  for (const page of pages) {
    for (const [, target] of readFileSync(page, "utf8").matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, anchor] = target.split("#");
      const problem = missing(path === "" ? page : normalize(join(dirname(page), path)), anchor);
      if (problem) problems.push(`${relative(ROOT, page)} links to ${target}: ${problem}`);
    }
  }
  expect(problems).toEqual([]);
});

test("every docs/…md#… a source comment cites names a heading that exists", () => {
  const sources = ["src", "plugins", "test", "scripts"].flatMap((dir) => filesUnder(join(ROOT, dir), (name) => /\.(ts|js|css)$/.test(name)));
  const problems: string[] = [];
  for (const source of sources) {
    for (const [, page, anchor] of readFileSync(source, "utf8").matchAll(/\bdocs\/([a-z0-9_-]+\.md)(?:#([a-z0-9_-]+))?/g)) {
      const problem = missing(join(ROOT, "docs", page), anchor);
      if (problem) problems.push(`${relative(ROOT, source)} cites docs/${page}${anchor ? `#${anchor}` : ""}: ${problem}`);
    }
  }
  expect(problems).toEqual([]);
});
