import { check } from "../api.ts";
import { debounce, h, replaceChildren } from "../dom.ts";
import { field, switchField } from "../field.ts";
import { jsonView } from "../json_view.ts";
import type { Trigger } from "../types.ts";
import type { SampleSource, Section } from "./section.ts";

export const MAX_PATTERNS = 50;
export const MAX_PATTERN_LENGTH = 200;

/** The non-empty lines of the Field patterns box, with their line numbers (messages cite them). */
export const patternLines = (text: string) =>
  text
    .split("\n")
    .map((raw, i) => ({ line: i + 1, pattern: raw.trim() }))
    .filter((p) => p.pattern !== "");

export const patternsOf = (text: string) => patternLines(text).map((p) => p.pattern);

// The check numbers lines within what it was sent; a single pattern is always "line 1".
const withoutLine = (message: string) => message.replace(/^line \d+:\s*/i, "");

/** Count and length problems, by line, without asking the server. */
export function patternLimitProblems(lines: Array<{ line: number; pattern: string }>): string[] {
  const problems: string[] = [];
  if (lines.length > MAX_PATTERNS) problems.push(`Use at most ${MAX_PATTERNS} patterns (there are ${lines.length}).`);
  for (const { line, pattern } of lines) {
    if (pattern.length > MAX_PATTERN_LENGTH) problems.push(`Line ${line}: ${pattern.length} characters long; the limit is ${MAX_PATTERN_LENGTH}.`);
  }
  return problems;
}

/** The PII Redaction region: switch, Field patterns checked one by one, and a redacted preview of the sample. */
export function redactionSection(trigger: Trigger | null, sample: SampleSource): Section {
  const saved = trigger?.redaction;
  const toggle = switchField(
    "PII Redaction",
    saved?.enabled ?? false,
    "Applied last, to events that pass deduplication and the filter: matching fields' values are replaced by a marker before $trigger is made.",
  );
  const patterns = field(
    "Field patterns",
    h("textarea", { name: "patterns", rows: 4, spellcheck: "false", class: "mono", placeholder: "^email$\ncard\npassword" }),
    `One regular expression per line, matched case-insensitively against field names (never values), as a substring unless anchored: ^email$ matches only "email". Up to ${MAX_PATTERNS} patterns of ${MAX_PATTERN_LENGTH} characters.`,
  );
  patterns.control.value = (saved?.patterns ?? []).join("\n");
  const preview = h("div", { class: "preview-box", "aria-live": "polite" });
  const previewLabel = h("p", { class: "preview-label" }, "Redacted preview of the sample");
  let serverProblems: string[] = [];

  let seq = 0;
  const run = debounce(async () => {
    const mine = ++seq;
    const lines = patternLines(patterns.control.value);
    const list = lines.map((l) => l.pattern);
    const limits = patternLimitProblems(lines);
    try {
      // One check per pattern (cached), so each message names its own line.
      const results = await Promise.all(
        lines.map(({ pattern }) => (pattern.length <= MAX_PATTERN_LENGTH ? check("regex", pattern) : Promise.resolve({ ok: true as const }))),
      );
      if (mine !== seq) return;
      serverProblems = results.flatMap((r, i) => (r.ok ? [] : [`Line ${lines[i].line}: ${withoutLine(r.error)}`]));
    } catch {
      serverProblems = [];
    }
    const all = [...limits, ...serverProblems];
    patterns.setError(all.length ? all.join("\n") : null);
    const s = sample.get();
    if (list.length === 0 || all.length || s.state !== "ok") {
      replaceChildren(
        preview,
        h(
          "p",
          { class: "muted" },
          list.length === 0 ? "Add a pattern to preview." : all.length ? "Fix the patterns to preview." : "Paste a sample body to preview.",
        ),
      );
      return;
    }
    try {
      const redacted = await check("regex", list.join("\n"), s.value);
      if (mine !== seq) return;
      replaceChildren(preview, redacted.ok ? jsonView(redacted.result, "Redacted preview") : h("p", { class: "muted" }, redacted.error));
    } catch (error) {
      replaceChildren(preview, h("p", { class: "muted" }, `The preview could not be made: ${(error as Error).message}`));
    }
  }, 350);

  patterns.control.addEventListener("input", run);
  sample.subscribe(run);
  run();

  const el = h("fieldset", { class: "region" }, h("legend", null, "PII Redaction"), toggle.wrap, patterns.wrap, previewLabel, preview);
  const sync = () => el.classList.toggle("off", !toggle.control.checked);
  toggle.control.addEventListener("change", sync);
  sync();

  return {
    el,
    value: () => ({ redaction: { enabled: toggle.control.checked, patterns: patternsOf(patterns.control.value) } }),
    validate() {
      const lines = patternLines(patterns.control.value);
      const problems = [...patternLimitProblems(lines), ...serverProblems];
      if (toggle.control.checked && lines.length === 0) problems.push("Add at least one pattern, or switch PII Redaction off.");
      patterns.setError(problems.length ? problems.join("\n") : null);
      return problems.length ? patterns.control : null;
    },
    fields: [toggle, patterns],
    explain(detail) {
      // The server numbers patterns from 0 among the non-empty lines; the box numbers lines from 1.
      const index = detail.path.match(/^\/redaction\/patterns\/(\d+)/)?.[1];
      const line = index === undefined ? undefined : patternLines(patterns.control.value)[Number(index)]?.line;
      return line === undefined ? detail.message : `Line ${line}: ${withoutLine(detail.message)}`;
    },
    fieldFor(path) {
      if (path.startsWith("/redaction/patterns")) return patterns;
      if (path.startsWith("/redaction")) return toggle;
      return null;
    },
  };
}
