import { expect, test } from "bun:test";
import { missingPluginWarnings } from "./missing.ts";

const triggers = [
  { id: "t1", name: "orders", app: "acme" },
  { id: "t2", name: "hooks", app: null },
  { id: "t3", name: "gh", app: "github" },
];

test("one warning per app trigger whose plugin is not loaded, naming the trigger, the plugin and the fix", () => {
  const lines = missingPluginWarnings(triggers, (id) => id === "github", undefined);
  expect(lines).toEqual([
    'trigger "orders" (t1) uses plugin "acme", which is not loaded: its URL answers 500 until it is (start with --plugins-dir DIR holding acme.ts)',
  ]);
  expect(missingPluginWarnings(triggers, (id) => id === "github", "/etc/inlet/plugins")[0]).toEndWith("(add acme.ts to /etc/inlet/plugins and restart)");
  expect(missingPluginWarnings(triggers, () => true, undefined)).toEqual([]);
});
