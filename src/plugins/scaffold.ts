import { existsSync } from "node:fs";
import { join } from "node:path";
import { writeNewFiles } from "./new_files.ts";

/**
 * Where the generated test imports inlet's plugin API from: this checkout's
 * `src/plugins/index.ts` when inlet runs from source, else the `inlet/plugins` package export
 * (the compiled binary carries no source files to point at).
 */
function defaultPluginApi(): string {
  const source = join(import.meta.dir, "index.ts");
  return existsSync(source) ? source : "inlet/plugins";
}

/**
 * Files `inlet plugins new <id>` writes: a working signed-timestamp plugin (a plain object
 * built on `ctx.recipes`, signing the raw bytes of the body) and a test that signs its own
 * deliveries and judges them with inlet's real plugin context and host check. Writes nothing
 * over an existing file or through a symbolic link (a `ScaffoldRefused` says which path).
 *
 * @example
 * ```ts
 * scaffoldPlugin("./my-plugins", "acme"); // ["./my-plugins/acme.ts", "./my-plugins/acme.test.ts"]
 * ```
 */
export function scaffoldPlugin(dir: string, id: string, pluginApi = defaultPluginApi()): string[] {
  if (!/^[a-z0-9-]+$/.test(id)) throw new TypeError(`a plugin id is lower-case letters, digits and hyphens (got ${JSON.stringify(id)})`);
  const name = id.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
  const plugin = join(dir, `${id}.ts`);
  const test = join(dir, `${id}.test.ts`);
  writeNewFiles(dir, [
    { path: plugin, content: pluginSource(id, name, dir) },
    { path: test, content: testSource(id, test, pluginApi) },
  ]);
  return [plugin, test];
}

function pluginSource(id: string, name: string, dir: string): string {
  return `// inlet app-trigger plugin for ${name}. Loaded with: inlet serve --plugins-dir ${dir}
// A plugin is a plain object: no import needed (packages cannot be imported inside the inlet
// binary; everything you need is on \`ctx\`, the recipe helpers on \`ctx.recipes\`). The host
// enforces toleranceSeconds and deduplication.

/**
 * ${name}'s recipe: HMAC-SHA256, hex, of "<timestamp>.<raw body>" — the body's bytes exactly as
 * received, never decoded to text. Change the headers and layout to the provider's real ones.
 */
const RECIPE = {
  header: "x-${id}-signature",
  timestampHeader: "x-${id}-timestamp",
  layout: "{timestamp}.{body}",
  signature: { hmac: "sha256", encoding: "hex" },
  toleranceSeconds: 300,
};
const recipe = (ctx) => ctx.recipes.signedTimestamp(RECIPE);

export default {
  id: ${JSON.stringify(id)},
  name: ${JSON.stringify(name)},
  secret: { label: "Signing secret", generated: false },
  verify: (req, ctx) => recipe(ctx).verify(req, ctx),
  timestamp: (req, ctx) => recipe(ctx).timestamp(req),
  toleranceSeconds: RECIPE.toleranceSeconds,
  deliveryId: (req) => req.headers.get("x-${id}-delivery"),
  dedupWindowSeconds: 86400,
  event: (_req, body) => (body && typeof body === "object" && typeof body.type === "string" ? body.type : null),
  credentialHeaders: [RECIPE.header],
  sign: (req, ctx) => recipe(ctx).sign(req, ctx),
};
`;
}

function testSource(id: string, test: string, pluginApi: string): string {
  return `// Run with: bun test ${test}
import { expect, test } from "bun:test";
// inlet's own plugin context and host check${pluginApi === "inlet/plugins" ? " (link an inlet checkout, or point this at its src/plugins/index.ts)" : ""}.
import { authenticateAppRequest, pluginContext } from ${JSON.stringify(pluginApi)};
import plugin from "./${id}.ts";

const request = (body, headers = {}) => ({
  method: "POST",
  url: "https://inlet.example/webhooks/t",
  headers: new Headers(headers),
  rawBody: typeof body === "string" ? new TextEncoder().encode(body) : body,
});

async function signed(body, secret = "s3cret", now = new Date()) {
  const req = request(body, { "x-${id}-delivery": "d-1" });
  const { headers } = await plugin.sign(req, pluginContext(secret, now));
  for (const [k, v] of Object.entries(headers)) req.headers.set(k, v);
  return req;
}

const accepted = async (req, secret = "s3cret", now = new Date()) => (await authenticateAppRequest(plugin, req, pluginContext(secret, now))).ok;

test("a signed request verifies", async () => {
  const req = await signed('{"type":"thing.created"}');
  expect(await accepted(req)).toBe(true);
  expect(plugin.deliveryId(req)).toBe("d-1");
  expect(plugin.event(req, { type: "thing.created" })).toBe("thing.created");
});

test("a body that is not UTF-8 is signed and verified as bytes", async () => {
  const req = await signed(Uint8Array.from([0xff, 0xfe, 0x00, 0x80]));
  expect(await accepted(req)).toBe(true);
  expect(await accepted({ ...req, rawBody: Uint8Array.from([0xff, 0xfe, 0x00, 0x81]) })).toBe(false);
});

test("a tampered body, a wrong secret or a missing signature fails", async () => {
  const req = await signed('{"type":"thing.created"}');
  expect(await accepted({ ...req, rawBody: new TextEncoder().encode('{"type":"thing.deleted"}') })).toBe(false);
  expect(await accepted(req, "other")).toBe(false);
  req.headers.delete("x-${id}-signature");
  expect(await accepted(req)).toBe(false);
});

test("a delivery outside toleranceSeconds fails, either way", async () => {
  const now = new Date();
  const req = await signed("{}", "s3cret", now);
  expect(plugin.timestamp(req, pluginContext("s3cret", now))).toBe(Math.floor(now.getTime() / 1000));
  const later = new Date(now.getTime() + (plugin.toleranceSeconds + 5) * 1000);
  const earlier = new Date(now.getTime() - (plugin.toleranceSeconds + 5) * 1000);
  expect(await accepted(req, "s3cret", later)).toBe(false);
  expect(await accepted(req, "s3cret", earlier)).toBe(false);
});
`;
}
