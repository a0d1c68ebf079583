import { h, replaceChildren } from "./dom.ts";
import { editorForm } from "./editor/editor.ts";
import { field } from "./field.ts";
import { loadPlugins } from "./plugins.ts";
import type { Plugin } from "./types.ts";
import { go, type View } from "./view.ts";

const WEBHOOK = "webhook";

/**
 * A new trigger: first the App (a generic Webhook or a loaded plugin), then the editor for that
 * choice. Changing the App rebuilds the editor below it, keeping the name typed so far.
 */
export function newTriggerView(initialApp: string): View {
  const select = h("select", { name: "app" }, h("option", { value: WEBHOOK }, "Webhook"));
  const app = field("App", select, "Webhook: a generic trigger; you choose how callers authenticate. An app: inlet verifies the provider's own signatures.");
  const editorHost = h("div", { class: "editor-host" });
  let plugins: Plugin[] = [];
  let nameSoFar = "";

  function render() {
    const chosen = select.value;
    const plugin = plugins.find((p) => p.id === chosen) ?? null;
    const previous = editorHost.querySelector<HTMLInputElement>('input[name="name"]');
    if (previous) nameSoFar = previous.value;
    const editor = editorForm({
      trigger: null,
      plugin,
      initialName: nameSoFar,
      onSaved: (t) => go(`#/triggers/${encodeURIComponent(t.id)}/settings`),
    });
    replaceChildren(editorHost, h("h2", { class: "step" }, plugin ? `2. Configure the ${plugin.name} trigger` : "2. Configure the Webhook trigger"), editor.el);
    // Keep the hash in step with the choice without a navigation (which would move focus).
    history.replaceState(null, "", `#/new/${encodeURIComponent(chosen)}`);
  }

  const el = h(
    "section",
    { class: "screen", "aria-labelledby": "new-heading" },
    h(
      "div",
      { class: "screen-head" },
      h("h1", { id: "new-heading", tabindex: "-1" }, "New trigger"),
      h("a", { href: "#/", class: "button secondary" }, "Cancel"),
    ),
    h("div", { class: "card app-choice" }, h("h2", { class: "step" }, "1. Choose the app"), app.wrap),
    editorHost,
  );

  loadPlugins()
    .then((list) => {
      plugins = list;
      select.append(
        h(
          "optgroup",
          { label: "Apps" },
          list.map((p) => h("option", { value: p.id }, p.name)),
        ),
      );
      select.value = list.some((p) => p.id === initialApp) ? initialApp : WEBHOOK;
      if (select.value !== WEBHOOK) render();
    })
    .catch((error: Error) => app.setError(`The app list could not be loaded (${error.message}); a Webhook trigger still works.`));
  select.addEventListener("change", render);
  render();
  return { el };
}
