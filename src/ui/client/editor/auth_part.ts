import { h, options, show, uid } from "../dom.ts";
import { field, type Field } from "../field.ts";
import type { Plugin, Trigger } from "../types.ts";
import { appSection } from "./app_section.ts";
import { authSection, type AuthSection } from "./auth_section.ts";
import { endpointSection } from "./endpoint.ts";
import type { Section } from "./section.ts";
import { rolloutSection } from "./rollout_section.ts";

/** An app trigger's: the type fixed at none (the app's recipe verifies), Name, then the app's own section. */
function appAuth(part: HTMLElement, trigger: Trigger | null, plugin: Plugin, name: Field): Section {
  const type = field(
    "Authentication Type",
    h("select", { name: "authType", disabled: true }, options([["none", "none"]], "none")),
    `${plugin.name} calls are verified by ${plugin.name}'s own signature recipe, not by a generic type.`,
  );
  const app = appSection(trigger, plugin);
  part.append(type.wrap, name.wrap, app.el);
  return app;
}

/** Says, while the authentication settings differ from the saved ones, that the curl command and secret below are the saved ones. */
function noteUnsavedChange(auth: AuthSection, pending: HTMLElement): void {
  const saved = JSON.stringify(auth.value());
  const savedType = auth.typeField.control.value;
  auth.onChange(() => {
    // Only a new type gets a new secret: a change of methods or of a header name keeps it.
    const newType = auth.typeField.control.value !== savedType;
    pending.textContent = `Save to apply the authentication change: the curl command${newType ? " and secret" : ""} below show the saved settings.${newType ? " A new Authentication Type gets a new secret." : ""}`;
    show(pending, JSON.stringify(auth.value()) !== saved);
  });
}

/**
 * The editor's first card: Authentication Type, Name, the mode's (or the app's) fields, the
 * report-only rollout (Mode, Report until), and once saved the endpoint (URL, secret, curl command).
 */
export function authPart(trigger: Trigger | null, plugin: Plugin | null, name: Field): { el: HTMLElement; sections: Section[]; endpoint: HTMLElement | null } {
  const pending = h("p", { class: "note", hidden: true });
  const headingId = uid("auth-heading");
  const el = h(
    "section",
    { class: "card", "aria-labelledby": headingId },
    h("h2", { id: headingId }, plugin ? `${plugin.name} app trigger` : "Authentication"),
  );
  let section: Section;
  if (plugin) section = appAuth(el, trigger, plugin, name);
  else {
    const auth = authSection(trigger);
    el.append(auth.typeField.wrap, name.wrap, auth.rest);
    if (trigger) noteUnsavedChange(auth, pending);
    section = auth;
  }
  // First among the sections: /auth/mode and /auth/reportUntil details are its, not the type's.
  const rollout = rolloutSection("auth", trigger?.auth);
  el.append(rollout.el);
  const endpoint = trigger ? endpointSection(trigger, plugin) : null;
  if (endpoint) el.append(pending, endpoint);
  else el.append(h("p", { class: "note" }, "The URL, the generated secret and a ready-to-run curl command appear once you save."));
  return { el, sections: [rollout, section], endpoint };
}
