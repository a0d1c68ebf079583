/** The inlet web panel: sign-in, then a hash router over the trigger screens. */
import { session, SIGNED_OUT } from "./api.ts";
import { h, replaceChildren } from "./dom.ts";
import { announce } from "./announce.ts";
import { signInView } from "./sign_in.ts";
import { listView } from "./list.ts";
import { newTriggerView } from "./new_trigger.ts";
import { triggerView } from "./trigger_view.ts";
import type { View } from "./view.ts";

const root = document.getElementById("app")!;
const main = h("main", { id: "main", tabindex: "-1" });
const signOut = h("button", { type: "button", class: "link-button", onClick: () => leave("You are signed out.") }, "Sign out");
const nav = h("nav", { "aria-label": "Main" }, h("a", { href: "#/" }, "Triggers"), signOut);
const header = h(
  "header",
  { class: "topbar" },
  h("a", { href: "#/", class: "brand" }, h("img", { src: "/ui/icon.svg", alt: "", width: 24, height: 24 }), "inlet"),
  nav,
);
const skip = h("a", { href: "#main", class: "skip-link", onClick: (e: Event) => (e.preventDefault(), main.focus()) }, "Skip to content");
replaceChildren(root, skip, header, main, h("div", { id: "announcer", class: "sr-only", "aria-live": "polite" }));

let current: View | null = null;
let firstRender = true;

function mount(view: View): void {
  current?.dispose?.();
  current = view;
  replaceChildren(main, view.el);
  // Move focus to the new screen's heading so keyboard and screen-reader users land on it.
  if (!firstRender) (view.el.querySelector("h1") as HTMLElement | null)?.focus();
  firstRender = false;
}

function route(): void {
  nav.hidden = !session.token;
  if (!session.token) {
    mount(signInView(() => route()));
    return;
  }
  const path = location.hash.replace(/^#/, "") || "/";
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "new") mount(newTriggerView(parts[1] ?? "webhook"));
  else if (parts[0] === "triggers" && parts[1]) mount(triggerView(parts[1], parts[2] ?? "settings", parts[3]));
  else mount(listView());
}

function leave(message: string): void {
  session.clear();
  announce(message);
  route();
}

window.addEventListener("hashchange", route);
window.addEventListener(SIGNED_OUT, () => {
  firstRender = true;
  route();
  announce("The admin token was not accepted. Sign in again.");
});
route();
