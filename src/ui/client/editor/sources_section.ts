import { h } from "../dom.ts";
import { field } from "../field.ts";
import type { Trigger } from "../types.ts";
import { rolloutSection } from "./rollout_section.ts";
import type { Section } from "./section.ts";

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");

/** The Allowed sources region: addresses and CIDR ranges allowed to call; empty means anyone. */
export function sourcesSection(trigger: Trigger | null): Section {
  const allow = field(
    "Allowed sources",
    h(
      "textarea",
      { name: "sources", rows: 3, spellcheck: "false", class: "mono", placeholder: "192.0.2.0/24\n2001:db8::/32\n203.0.113.7" },
      (trigger?.sources?.allow ?? []).join("\n"),
    ),
    "One address or CIDR range per line; other addresses get 403 before authentication. Empty: any address. Behind a proxy, see --trusted-proxies.",
  );
  const rollout = rolloutSection("sources", trigger?.sources);
  const el = h("fieldset", { class: "region" }, h("legend", null, "Allowed sources"), allow.wrap, rollout.el);
  return {
    el,
    value: () => ({ sources: { allow: lines(allow.control.value), ...(rollout.value().sources as object | undefined) } }),
    validate() {
      const count = lines(allow.control.value).length;
      const problem = count > 100 ? `At most 100 entries (there are ${count}).` : null;
      allow.setError(problem);
      const rolloutProblem = rollout.validate();
      return problem ? allow.control : rolloutProblem;
    },
    fields: [allow, ...rollout.fields],
    fieldFor: (path) => rollout.fieldFor(path) ?? (path.startsWith("/sources") ? allow : null),
    explain: (detail) => {
      const index = /^\/sources\/allow\/(\d+)$/.exec(detail.path);
      return index ? `Line ${Number(index[1]) + 1}: ${detail.message}` : detail.message;
    },
  };
}
