import { api } from "./api.ts";
import { h, replaceChildren } from "./dom.ts";
import { timeEl } from "./time.ts";
import { firingBadge, firingTriggers } from "./firing.ts";
import { loadPlugins, pluginName } from "./plugins.ts";
import type { Plugin, Trigger } from "./types.ts";
import { go, type View } from "./view.ts";

const methodsLabel = (t: Trigger) => (t.methods.length === 2 ? "GET and POST" : t.methods[0]);

function features(t: Trigger): string {
  const on = [t.dedup.strategy !== "disabled" ? "Deduplication" : "", t.filter.enabled ? "Filter" : "", t.redaction.enabled ? "Redaction" : ""].filter(Boolean);
  return on.join(", ") || "—";
}

function row(t: Trigger, plugins: Plugin[], firing: Set<string>): HTMLTableRowElement {
  const href = `#/triggers/${encodeURIComponent(t.id)}/settings`;
  const tr = h(
    "tr",
    { class: "clickable" },
    h("td", { "data-label": "Name" }, h("a", { href, class: "row-link" }, t.name), firing.has(t.id) ? [" ", firingBadge()] : ""),
    h("td", { "data-label": "App" }, pluginName(plugins, t.app)),
    h("td", { "data-label": "Authentication" }, t.app ? "provider signature" : t.auth.type),
    h("td", { "data-label": "Methods" }, methodsLabel(t)),
    h("td", { "data-label": "Pre-execution" }, features(t)),
    h("td", { "data-label": "Created" }, timeEl(t.createdAt)),
  );
  // The whole row opens the trigger; the name link is the keyboard path.
  tr.addEventListener("click", (event) => {
    if ((event.target as HTMLElement).closest("a")) return;
    go(href);
  });
  return tr;
}

/** The trigger list: each row leads to the trigger's Settings, Activity and Runs. */
export function listView(): View {
  const body = h("div", { class: "list-body", "aria-busy": "true" }, h("p", { class: "muted" }, "Loading triggers…"));
  const el = h(
    "section",
    { class: "screen", "aria-labelledby": "triggers-heading" },
    h(
      "div",
      { class: "screen-head" },
      h("h1", { id: "triggers-heading", tabindex: "-1" }, "Triggers"),
      h("button", { type: "button", class: "primary", onClick: () => go("#/new") }, "New trigger"),
    ),
    body,
  );
  Promise.all([api<Trigger[]>("GET", "/api/triggers"), loadPlugins().catch(() => [] as Plugin[]), firingTriggers()])
    .then(([triggers, plugins, firing]) => {
      body.removeAttribute("aria-busy");
      if (triggers.length === 0) {
        replaceChildren(
          body,
          h(
            "div",
            { class: "empty card" },
            h("p", null, "No triggers yet."),
            h("p", { class: "muted" }, "A trigger gives a workflow a URL that outside systems call. Start with New trigger."),
          ),
        );
        return;
      }
      replaceChildren(
        body,
        h(
          "table",
          { class: "table responsive" },
          h("caption", { class: "sr-only" }, `${triggers.length} triggers, newest first`),
          h("thead", null, h("tr", null, ...["Name", "App", "Authentication", "Methods", "Pre-execution", "Created"].map((c) => h("th", { scope: "col" }, c)))),
          h(
            "tbody",
            null,
            triggers.map((t) => row(t, plugins, firing)),
          ),
        ),
      );
    })
    .catch((error: Error) => {
      body.removeAttribute("aria-busy");
      replaceChildren(body, h("p", { class: "error-banner", role: "alert" }, `Could not load the triggers: ${error.message}`));
    });
  return { el };
}
