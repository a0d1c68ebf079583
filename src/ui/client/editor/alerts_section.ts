import { h, options } from "../dom.ts";
import { field, wholeNumberProblem, type Field } from "../field.ts";
import type { AlertRule, Trigger } from "../types.ts";
import type { Section } from "./section.ts";

type Kind = AlertRule["kind"];
const KINDS: ReadonlyArray<readonly [Kind, string]> = [
  ["silence", "silence: no accepted request for a while"],
  ["auth_failures", "auth_failures: authentication failures in a window"],
  ["run_failures", "run_failures: failed runs in a window"],
  ["backlog", "backlog: runs queued or running"],
  ["destination_open", "destination_open: a destination's breaker open for a while"],
];
const usesCount = (k: Kind) => k !== "silence" && k !== "destination_open";
const usesSeconds = (k: Kind) => k !== "backlog";

interface RuleRow {
  el: HTMLElement;
  kind: Field<HTMLSelectElement>;
  count: Field<HTMLInputElement>;
  seconds: Field<HTMLInputElement>;
}

/** The Alerts region: the trigger's alert rules (at most 10), each a kind and its numbers. */
export function alertsSection(trigger: Trigger | null): Section {
  const list = h("div", { class: "stack" });
  const rows: RuleRow[] = [];
  const add = h("button", { type: "button", class: "secondary small" }, "Add alert rule");

  function addRow(rule: AlertRule = { kind: "silence", seconds: 3600 }) {
    const n = rows.length + 1;
    const kind = field("Kind", h("select", { name: `alertKind${n}` }, options(KINDS, rule.kind)));
    const count = field(
      "Count",
      h("input", { type: "text", inputmode: "numeric", name: `alertCount${n}`, value: "count" in rule ? String(rule.count) : "10" }),
    );
    const seconds = field(
      "Seconds",
      h("input", { type: "text", inputmode: "numeric", name: `alertSeconds${n}`, value: "seconds" in rule ? String(rule.seconds) : "300" }),
    );
    const remove = h("button", { type: "button", class: "secondary small" }, "Remove");
    const el = h("div", { class: "alert-rule", role: "group" }, kind.wrap, count.wrap, seconds.wrap, remove);
    const row = { el, kind, count, seconds };
    const place = () => {
      count.wrap.hidden = !usesCount(kind.control.value as Kind);
      seconds.wrap.hidden = !usesSeconds(kind.control.value as Kind);
    };
    kind.control.addEventListener("change", place);
    remove.addEventListener("click", () => {
      rows.splice(rows.indexOf(row), 1);
      el.remove();
      relabel();
    });
    place();
    rows.push(row);
    list.append(el);
    relabel();
  }

  function relabel() {
    rows.forEach((r, i) => r.el.setAttribute("aria-label", `Alert rule ${i + 1}`));
    add.disabled = rows.length >= 10;
  }

  add.addEventListener("click", () => addRow());
  for (const rule of trigger?.alerts ?? []) addRow(rule);
  relabel();

  const el = h(
    "fieldset",
    { class: "region" },
    h("legend", null, "Alerts"),
    h("p", { class: "hint" }, "Evaluated every few seconds; a notification goes to the server's --alert-url when a rule starts firing and when it resolves."),
    list,
    add,
  );
  const whole = (f: Field, min: number, max: number) => wholeNumberProblem(f.control.value, min, max, { required: true });
  return {
    el,
    value() {
      return {
        alerts: rows.map((r): AlertRule => {
          const kind = r.kind.control.value as Kind;
          const count = Number(r.count.control.value.trim());
          const seconds = Number(r.seconds.control.value.trim());
          if (kind === "silence" || kind === "destination_open") return { kind, seconds };
          if (kind === "backlog") return { kind, count };
          return { kind, count, seconds };
        }),
      };
    },
    validate() {
      let first: HTMLElement | null = null;
      for (const r of rows) {
        const kind = r.kind.control.value as Kind;
        const c = usesCount(kind) ? whole(r.count, 1, 1_000_000) : null;
        const s = usesSeconds(kind) ? whole(r.seconds, 1, 604_800) : null;
        r.count.setError(c);
        r.seconds.setError(s);
        first ??= c ? r.count.control : s ? r.seconds.control : null;
      }
      return first;
    },
    get fields() {
      return rows.flatMap((r) => [r.kind, r.count, r.seconds]);
    },
    fieldFor(path) {
      const m = /^\/alerts\/(\d+)(?:\/(count|seconds))?/.exec(path);
      if (!m) return null;
      const r = rows[Number(m[1])];
      if (!r) return null;
      return m[2] === "count" ? r.count : m[2] === "seconds" ? r.seconds : r.kind;
    },
  };
}
