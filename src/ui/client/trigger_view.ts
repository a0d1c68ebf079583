import { api, ApiError } from "./api.ts";
import { activityPanel } from "./activity.ts";
import { h, replaceChildren } from "./dom.ts";
import { editorForm } from "./editor/editor.ts";
import { firingBadge, firingTriggers } from "./firing.ts";
import { loadPlugins, pluginName } from "./plugins.ts";
import { runsPanel } from "./runs.ts";
import type { Plugin, Trigger } from "./types.ts";
import { go, type View } from "./view.ts";

const TABS = [
  ["settings", "Settings"],
  ["activity", "Activity"],
  ["runs", "Runs"],
] as const;

/** One trigger: its Settings, Activity and Runs, as links that each have their own address. */
export function triggerView(id: string, tab: string, runId?: string): View {
  const active = TABS.some(([key]) => key === tab) ? tab : "settings";
  const base = `#/triggers/${encodeURIComponent(id)}`;
  const title = h("h1", { tabindex: "-1" }, "Trigger");
  const subtitle = h("p", { class: "muted subtitle" });
  const nav = h(
    "nav",
    { class: "tabs", "aria-label": "Trigger sections" },
    h(
      "ul",
      null,
      TABS.map(([key, label]) => h("li", null, h("a", { href: `${base}/${key}`, ...(key === active ? { "aria-current": "page" } : {}) }, label))),
    ),
  );
  const body = h("div", { class: "tab-body", "aria-busy": "true" }, h("p", { class: "muted" }, "Loading…"));
  const el = h(
    "section",
    { class: "screen" },
    h("p", { class: "crumbs" }, h("a", { href: "#/" }, "Triggers"), " / "),
    h("div", { class: "screen-head" }, h("div", null, title, subtitle)),
    nav,
    body,
  );
  let disposeTab: (() => void) | undefined;
  let disposed = false;

  function show(trigger: Trigger, plugins: Plugin[]) {
    const plugin = trigger.app
      ? (plugins.find((p) => p.id === trigger.app) ?? { id: trigger.app, name: trigger.app, secret: { label: "Secret", generated: false } })
      : null;
    title.textContent = trigger.name;
    void firingTriggers().then((firing) => {
      if (firing.has(trigger.id) && !title.querySelector(".firing")) title.append(" ", firingBadge());
    });
    subtitle.textContent = `${pluginName(plugins, trigger.app)} trigger · ${trigger.url}`;
    document.title = `${trigger.name} · ${TABS.find(([k]) => k === active)![1]} · inlet`;
    body.removeAttribute("aria-busy");
    disposeTab?.();
    disposeTab = undefined;
    if (active === "settings") {
      const editor = editorForm({
        trigger,
        plugin,
        onSaved: (saved) => {
          // Re-render with what the server stored (a new secret, a new curl command); keep the place.
          show(saved, plugins);
          const status = body.querySelector(".save-status");
          if (status) status.textContent = "Saved";
          body.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus();
        },
        onDeleted: () => go("#/"),
      });
      replaceChildren(body, editor.el);
    } else if (active === "activity") {
      const panel = activityPanel(trigger);
      disposeTab = panel.dispose;
      replaceChildren(body, panel.el);
    } else {
      const panel = runsPanel(trigger, runId);
      disposeTab = panel.dispose;
      replaceChildren(body, panel.el);
    }
  }

  Promise.all([api<Trigger>("GET", `/api/triggers/${encodeURIComponent(id)}`), loadPlugins().catch(() => [] as Plugin[])])
    .then(([trigger, plugins]) => {
      if (!disposed) show(trigger, plugins);
    })
    .catch((error: Error) => {
      body.removeAttribute("aria-busy");
      const missing = error instanceof ApiError && error.status === 404;
      replaceChildren(
        body,
        h(
          "p",
          { class: "error-banner", role: "alert" },
          missing ? "This trigger does not exist (it may have been deleted)." : `The trigger could not be loaded: ${error.message}`,
        ),
        h("p", null, h("a", { href: "#/" }, "Back to the triggers")),
      );
    });

  return {
    el,
    dispose() {
      disposed = true;
      disposeTab?.();
      document.title = "inlet";
    },
  };
}
