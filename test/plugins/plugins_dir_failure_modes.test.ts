/**
 * The shared failure-mode suite over plugins loaded the way `--plugins-dir` loads them: the
 * fixture dir `plugins_dir/` (plain objects with no imports, built on `ctx.recipes`: a list
 * header with HMAC-SHA512, Ed25519, trust on first use, a declared handshake) and a freshly
 * scaffolded plugin (`inlet plugins new`). Each is taken from the registry, so declared
 * handshakes are compiled exactly as the server compiles them.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { handshakeAnswer, pluginContext, type PluginFixture } from "../../src/plugins/index.ts";
import { PluginRegistry } from "../../src/plugins/registry.ts";
import { scaffoldPlugin } from "../../src/plugins/scaffold.ts";
import { failureModeSuite } from "./failure_mode_suite.ts";

const scaffolded = mkdtempSync(join(tmpdir(), "inlet-plugins-dir-"));
afterAll(() => rmSync(scaffolded, { recursive: true, force: true }));
scaffoldPlugin(scaffolded, "scaffolded");

const registry = new PluginRegistry();
const loaded = [...(await registry.loadDir(join(import.meta.dir, "plugins_dir"))), ...(await registry.loadDir(scaffolded))];

const fixtures: Record<string, PluginFixture> = {
  scaffolded: { appSecret: "s3cret", body: '{"type":"thing.created"}', headers: { "x-scaffolded-delivery": "d-1" }, deliveryId: "d-1", event: "thing.created" },
};
for (const id of loaded) fixtures[id] ??= (await import(join(import.meta.dir, "plugins_dir_fixtures", `${id}.ts`))).default;

test("every plugin of the dir was loaded", () => {
  expect(loaded.sort()).toEqual(["acme-ed25519", "acme-list", "acme-tofu", "scaffolded"]);
});

failureModeSuite(loaded.map((id) => ({ id, plugin: registry.get(id)!, fixture: fixtures[id] })));

// The suite checks that ordinary deliveries are no handshakes; these check the handshakes themselves.
const NOW = new Date();
const post = (body: string, headers: Record<string, string> = {}) => ({
  method: "POST",
  url: "https://inlet.example/webhooks/t",
  headers: new Headers(headers),
  rawBody: new TextEncoder().encode(body),
});

test("a declared challenge echo is answered once the request verifies, never before", async () => {
  const plugin = registry.get("acme-list")!;
  const body = '{"type":"endpoint.verify","challenge":"c-123"}';
  const unsigned = post(body);
  const signed = await plugin.sign!(unsigned, pluginContext(fixtures["acme-list"].appSecret, NOW));
  for (const [name, value] of Object.entries(signed.headers)) unsigned.headers.set(name, value);
  const answer = (await handshakeAnswer(plugin, unsigned, pluginContext(fixtures["acme-list"].appSecret, NOW))) as Response;
  expect(await answer.json()).toEqual({ challenge: "c-123" });
  expect(await handshakeAnswer(plugin, unsigned, pluginContext("another secret", NOW))).toBeNull();
});

test("a trust-on-first-use plugin from the dir adopts the offered secret only while it has none", async () => {
  const plugin = registry.get("acme-tofu")!;
  const first = post("{}", { "x-acme-hook-secret": "offered" });
  const answer = (await handshakeAnswer(plugin, first, pluginContext("", NOW))) as { response: Response; adoptSecret: string };
  expect(answer.adoptSecret).toBe("offered");
  expect(answer.response.headers.get("x-acme-hook-secret")).toBe("offered");
  expect(await handshakeAnswer(plugin, first, pluginContext("already-set", NOW))).toBeNull();
});
