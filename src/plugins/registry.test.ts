import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
  expect(pluginProblems({ ...plugin, decodeBody: { data: "base64" } })).toEqual(["decodeBody must be a function when present"]);
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

test("a plugin that adopts its secret says so with adoptsSecret: true, and has the handshake that hands it over", () => {
  const handshake = () => null;
  expect(pluginProblems({ ...plugin, adoptsSecret: true, handshake })).toEqual([]);
  expect(pluginProblems({ ...plugin, adoptsSecret: true })).toEqual([
    "adoptsSecret: true needs a handshake(req, ctx) that hands the secret over ({ response, adoptSecret })",
  ]);
  expect(pluginProblems({ ...plugin, adoptsSecret: "yes", handshake })).toEqual(["adoptsSecret must be true or false when present"]);
});

test("credentialQuery is a list of names; handshakeMethods are upper-case methods other than POST, GET and HEAD, answered by handshake()", () => {
  const handshake = () => null;
  expect(pluginProblems({ ...plugin, credentialQuery: ["code"], handshakeMethods: ["OPTIONS"], handshake })).toEqual([]);
  expect(pluginProblems({ ...plugin, credentialQuery: "code" })).toEqual(["credentialQuery must be an array of query parameter names"]);
  expect(pluginProblems({ ...plugin, credentialQuery: [""] })).toEqual(["credentialQuery must be an array of query parameter names"]);
  expect(pluginProblems({ ...plugin, handshakeMethods: ["options"], handshake })).toEqual([
    'handshakeMethods must be an array of upper-case method names, e.g. ["OPTIONS"]',
  ]);
  expect(pluginProblems({ ...plugin, handshakeMethods: ["OPTIONS", "GET"], handshake })).toEqual([
    "handshakeMethods cannot list GET: POST always reaches the plugin, and GET and HEAD reach handshake() unverified",
  ]);
  // Declared handshakes answer POSTs only: an OPTIONS would never be answered.
  const handshakes = [{ when: [{ field: ["type"], equals: "ping" }], reply: { status: 200 } }];
  expect(pluginProblems({ ...plugin, handshakeMethods: ["OPTIONS"], handshakes })).toEqual([
    "handshakeMethods needs a handshake(req, ctx) function that answers them",
  ]);
  expect(pluginProblems({ ...plugin, handshakeMethods: ["OPTIONS"] })).toEqual(["handshakeMethods needs a handshake(req, ctx) function that answers them"]);
});

test("the same id twice is refused, naming where the first came from", () => {
  const registry = new PluginRegistry([plugin]);
  expect(() => registry.add(plugin, "/plugins/acme.ts")).toThrow('/plugins/acme.ts: plugin id "acme" is already loaded from built-in');
});

test("loadDir: every .ts/.js file (not .d.ts, tests or other files), in name order; each broken file is named", async () => {
  const root = mkdtempSync(join(tmpdir(), "inlet-loaddir-"));
  const dirOf = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(root, "d-"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  };
  const source = (id: string) => `export default { id: "${id}", name: "${id}", secret: { label: "s", generated: false }, verify: () => true };\n`;
  try {
    const good = dirOf({
      "b.ts": source("bee"),
      "a.js": source("ay"),
      "types.d.ts": "export {};\n",
      "b.test.ts": "throw new Error('not a plugin');\n",
      "README.md": "# notes\n",
    });
    expect(await new PluginRegistry().loadDir(good)).toEqual(["ay", "bee"]);
    const broken: Array<[Record<string, string>, string, RegExp]> = [
      [{ "boom.ts": "throw new Error('top-level failure');\n" }, "boom.ts", /cannot be loaded: top-level failure/],
      [{ "syntax.js": "export default {\n" }, "syntax.js", /cannot be loaded/],
      [{ "named.ts": "export const plugin = {};\n" }, "named.ts", /the default export is not an object/],
      [{ "one.ts": source("dup"), "two.ts": source("dup") }, "two.ts", /plugin id "dup" is already loaded from .*one\.ts/],
    ];
    for (const [files, culprit, message] of broken) {
      const dir = dirOf(files);
      const error = await new PluginRegistry().loadDir(dir).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PluginLoadError);
      expect((error as Error).message).toStartWith(join(dir, culprit) + ": ");
      expect((error as Error).message).toMatch(message);
    }
    const missing = join(root, "nope");
    await expect(new PluginRegistry().loadDir(missing)).rejects.toThrow(`--plugins-dir ${missing}: `);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
