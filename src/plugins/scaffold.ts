import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Files `inlet plugins new <id>` writes: a working HMAC plugin and a test that signs its own fixtures. */
export function scaffoldPlugin(dir: string, id: string): string[] {
  if (!/^[a-z0-9-]+$/.test(id)) throw new TypeError(`a plugin id is lower-case letters, digits and hyphens (got ${JSON.stringify(id)})`);
  const name = id.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
  const plugin = join(dir, `${id}.ts`);
  const test = join(dir, `${id}.test.ts`);
  for (const file of [plugin, test]) if (existsSync(file)) throw new TypeError(`${file} already exists`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    plugin,
    `// inlet app-trigger plugin for ${name}. Loaded with: inlet serve --plugins-dir ${dir}
// A plugin is a plain object: no import needed (packages cannot be imported inside the inlet
// binary; everything you need is on \`ctx\`). The host enforces toleranceSeconds and dedup.

/** Where ${name} puts its signature and timestamp; change to the provider's real headers. */
const SIGNATURE = "x-${id}-signature";
const TIMESTAMP = "x-${id}-timestamp";

/** The provider's recipe: HMAC-SHA256 over "<timestamp>.<raw body>", hex. */
function expected(req, ctx) {
  const ts = req.headers.get(TIMESTAMP);
  if (!ts || !ctx.secret) return null;
  return ctx.hmac("sha256", ctx.secret, ts + "." + new TextDecoder().decode(req.rawBody), "hex");
}

export default {
  id: ${JSON.stringify(id)},
  name: ${JSON.stringify(name)},
  secret: { label: "Signing secret", generated: false },
  verify(req, ctx) {
    const want = expected(req, ctx);
    const got = req.headers.get(SIGNATURE);
    return want !== null && got !== null && ctx.timingSafeEqual(got.toLowerCase(), want);
  },
  timestamp: (req) => Number(req.headers.get(TIMESTAMP)) || null,
  toleranceSeconds: 300,
  deliveryId: (req) => req.headers.get("x-${id}-delivery"),
  dedupWindowSeconds: 86400,
  event: (_req, body) => (body && typeof body === "object" && typeof body.type === "string" ? body.type : null),
  credentialHeaders: [SIGNATURE],
  sign(req, ctx) {
    const ts = req.headers.get(TIMESTAMP) ?? String(Math.floor(ctx.now.getTime() / 1000));
    const withTs = { ...req, headers: new Headers(req.headers) };
    withTs.headers.set(TIMESTAMP, ts);
    return { headers: { [TIMESTAMP]: ts, [SIGNATURE]: expected(withTs, ctx) } };
  },
};
`,
  );
  writeFileSync(
    test,
    `// Run with: bunx bun test ${test}
import { expect, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import plugin from "./${id}.ts";

// The same services inlet gives a plugin, enough for tests.
const ctx = (secret, now = new Date()) => ({
  secret,
  now,
  hmac: (alg, key, data, enc) => createHmac(alg, key).update(data).digest(enc),
  timingSafeEqual: (a, b) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b)),
});
const request = (body, headers = {}) => ({ method: "POST", url: "https://inlet.example/webhooks/t", headers: new Headers(headers), rawBody: new TextEncoder().encode(body) });

async function signed(body, secret = "s3cret", now = new Date()) {
  const req = request(body, { "x-${id}-delivery": "d-1" });
  const { headers } = await plugin.sign(req, ctx(secret, now));
  for (const [k, v] of Object.entries(headers)) req.headers.set(k, v);
  return req;
}

test("a signed request verifies", async () => {
  const req = await signed('{"type":"thing.created"}');
  expect(await plugin.verify(req, ctx("s3cret"))).toBe(true);
  expect(plugin.deliveryId(req)).toBe("d-1");
  expect(plugin.event(req, { type: "thing.created" })).toBe("thing.created");
});

test("a tampered body, a wrong secret or a missing signature fails", async () => {
  const req = await signed('{"type":"thing.created"}');
  expect(await plugin.verify({ ...req, rawBody: new TextEncoder().encode('{"type":"thing.deleted"}') }, ctx("s3cret"))).toBe(false);
  expect(await plugin.verify(req, ctx("other"))).toBe(false);
  req.headers.delete("x-${id}-signature");
  expect(await plugin.verify(req, ctx("s3cret"))).toBe(false);
});

test("the timestamp is what the host checks against toleranceSeconds", async () => {
  const now = new Date();
  const req = await signed("{}", "s3cret", now);
  expect(plugin.timestamp(req)).toBe(Math.floor(now.getTime() / 1000));
});
`,
  );
  return [plugin, test];
}
