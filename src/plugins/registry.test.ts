import { expect, test } from "bun:test";
import { PluginLoadError, PluginRegistry, pluginProblems } from "./registry.ts";

const plugin = { id: "acme", name: "Acme", secret: { label: "Signing secret", generated: false }, verify: () => true };

test("a usable plugin has no problems; each broken part is named", () => {
  expect(pluginProblems(plugin)).toEqual([]);
  expect(pluginProblems(null)).toEqual(["the default export is not an object"]);
  expect(pluginProblems({ ...plugin, id: "Acme", verify: 1, event: "x" })).toEqual([
    'id must match [a-z0-9-]+ (got "Acme")',
    "verify(req, ctx) must be a function",
    "event must be a function when present",
  ]);
});

test("a timestamp and its tolerance come together: either one alone is refused at load", () => {
  const timestamp = () => null;
  expect(pluginProblems({ ...plugin, timestamp, toleranceSeconds: 300 })).toEqual([]);
  expect(pluginProblems({ ...plugin, timestamp })).toEqual(["toleranceSeconds must be a positive number when timestamp() is given"]);
  // Without timestamp() every delivery's timestamp would be missing, so every delivery refused.
  expect(pluginProblems({ ...plugin, toleranceSeconds: 300 })).toEqual([
    "timestamp(req, ctx) must be given with toleranceSeconds: without it every delivery's timestamp is missing, so each would be refused",
  ]);
  expect(() => new PluginRegistry([{ ...plugin, toleranceSeconds: 300 }])).toThrow(PluginLoadError);
});

test("the same id twice is refused, naming where the first came from", () => {
  const registry = new PluginRegistry([plugin]);
  expect(() => registry.add(plugin, "/plugins/acme.ts")).toThrow('/plugins/acme.ts: plugin id "acme" is already loaded from built-in');
});
