/**
 * The failure modes every app-trigger plugin must get right, as a suite any test file runs over
 * a list of plugins with fixtures: the built-ins (`failure_modes.test.ts`) and plugins loaded
 * from a plugins dir by the loader (`plugins_dir_failure_modes.test.ts`).
 *
 * Each delivery is made by the plugin's own `sign()` from its fixture and judged by
 * `authenticateAppRequest`, the host's check (signature, then the declared tolerance), with a
 * pinned clock. Handshakes are asked as the host asks them (`hostHandshake`: a `handshake()`
 * function or declared `handshakes`).
 *
 * @module
 */
import { describe, expect, test } from "bun:test";
import { parseBodyAndText } from "../../src/ingest/body_parsers.ts";
import {
  authenticateAppRequest,
  hostHandshake,
  parseJson,
  pluginContext,
  settingsWithDefaults,
  type InletPlugin,
  type PluginFixture,
  type PluginRequest,
  type ProviderFetch,
} from "../../src/plugins/index.ts";

const TRIGGER_URL = "https://inlet.example.com/webhooks/tok_5e0c9a7b3d1f";
const NOW = new Date(1_750_000_000_000);
const encoder = new TextEncoder();

/** One plugin and its sample delivery. */
export interface FailureModeCase {
  id: string;
  plugin: InletPlugin;
  fixture: PluginFixture;
  /** Where the plugin's `ctx.fetchText` goes: a `ProviderFetch` allowing a local double of its provider (none: the provider's own hosts). */
  providerFetch?: ProviderFetch;
}
type Case = FailureModeCase;

/** The context the host gives the case's hooks: the secret, the clock, the fixture's settings and fetcher. */
const contextOf = (c: Case, secret: string, now: Date) =>
  pluginContext(secret, now, false, { settings: settingsWithDefaults(c.plugin.settings, c.fixture.appSettings), providerFetch: c.providerFetch });

/** A signed request and the names of the headers `sign()` added. */
interface Delivery {
  req: PluginRequest;
  signedHeaders: string[];
  /**
   * The added headers a provider's check depends on: the declared credential headers, and a
   * timestamp header (its value is the signing time). Others, such as Twitch's message type,
   * are informational and may be anything.
   */
  checkedHeaders: string[];
}

const seconds = (s: number) => new Date(NOW.getTime() + s * 1000);
const contentTypeOf = (c: Case) => c.fixture.contentType ?? "application/json";
const signingKeyOf = (c: Case) => c.fixture.signingKey ?? c.fixture.appSecret;

/** The fixture's delivery as the provider sends it at `at`, signed by the plugin's `sign()`. */
async function deliver(c: Case, at: Date, signingKey = signingKeyOf(c)): Promise<Delivery> {
  const headers = new Headers({ "content-type": contentTypeOf(c), ...c.fixture.headers });
  const unsigned = { method: "POST", url: TRIGGER_URL + (c.fixture.query ?? ""), headers, rawBody: encoder.encode(c.fixture.body) };
  const signed = await c.plugin.sign!(unsigned, contextOf(c, signingKey, at));
  const out = new Headers(headers);
  for (const [name, value] of Object.entries(signed.headers)) out.set(name, value);
  const signedHeaders = Object.keys(signed.headers).map((name) => name.toLowerCase());
  const declared = new Set((c.plugin.credentialHeaders ?? []).map((name) => name.toLowerCase()));
  const signingTime = String(Math.floor(at.getTime() / 1000));
  return {
    req: { method: "POST", url: signed.url ?? unsigned.url, headers: out, rawBody: signed.rawBody ?? unsigned.rawBody },
    signedHeaders,
    checkedHeaders: signedHeaders.filter((name) => declared.has(name) || out.get(name) === signingTime),
  };
}

async function authenticate(c: Case, req: PluginRequest, now = NOW, secret = c.fixture.appSecret) {
  return authenticateAppRequest(c.plugin, req, contextOf(c, secret, now));
}

/** Calls `verify` itself (not through the host, which swallows exceptions) and reports a throw. */
async function verifyDirectly(c: Case, req: PluginRequest, secret = c.fixture.appSecret): Promise<{ ok: boolean; threw: unknown }> {
  try {
    return { ok: (await c.plugin.verify(req, contextOf(c, secret, NOW))) === true, threw: null };
  } catch (error) {
    return { ok: false, threw: error };
  }
}

function withHeader(req: PluginRequest, name: string, value: string | null): PluginRequest {
  const headers = new Headers(req.headers);
  if (value === null) headers.delete(name);
  else headers.set(name, value);
  return { ...req, headers };
}

/** The same text with one letter or digit near the middle changed within its class (hex stays hex). */
function mutate(text: string): string {
  const rotate = (ch: string): string | null => {
    const classes = ["0123456789", "abcdef", "ABCDEF", "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"];
    for (const set of classes) if (set.includes(ch)) return set[(set.indexOf(ch) + 1) % set.length];
    return null;
  };
  for (let offset = 0; offset < text.length; offset++) {
    const at = (text.length >> 1) + offset;
    const i = at % text.length;
    const replacement = rotate(text[i]);
    if (replacement !== null) return text.slice(0, i) + replacement + text.slice(i + 1);
  }
  return text + "x";
}

/** Broken forms of a credential header value: garbage, empty, a wrong prefix, truncated, extended. */
function malformedValues(value: string): string[] {
  const prefix = /^[^=,:; ]{1,12}(?=[=,:; ])/.exec(value);
  const wrongPrefix = prefix ? "zz" + value.slice(prefix[0].length) : "zz=" + value;
  // Trailing base64 padding may be optional; cut into the digest itself.
  const unpadded = value.replace(/=+$/, "");
  return ["garbage", "", wrongPrefix, unpadded.slice(0, -1), unpadded.slice(0, unpadded.length >> 1), value + "0", "v1=,v1=", "=", ",;", "\u00ff".repeat(4)];
}

/** Registers the failure-mode tests for every case. */
export function failureModeSuite(cases: Case[]): void {
  test("the suite found plugins to check", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const c of cases) {
    const { plugin, fixture } = c;
    const unsigned = fixture.unsigned === true;
    const tolerance = plugin.toleranceSeconds;
    const handshake = hostHandshake(plugin);

    describe(`${c.id} plugin`, () => {
      test("declares a usable shape", () => {
        expect(plugin.id).toBe(c.id);
        expect(plugin.name.length).toBeGreaterThan(0);
        expect(plugin.secret.label.length).toBeGreaterThan(0);
        expect(typeof plugin.sign).toBe("function");
        for (const name of plugin.credentialHeaders ?? []) expect(name).toBe(name.toLowerCase());
        if (tolerance !== undefined) expect(typeof plugin.timestamp).toBe("function");
        if (plugin.timestamp) expect(tolerance).toBeGreaterThan(0);
      });

      test("a delivery signed by its own sign() authenticates", async () => {
        const { req } = await deliver(c, NOW);
        expect(await authenticate(c, req)).toEqual({ ok: true });
        if (plugin.timestamp) expect(plugin.timestamp(req, contextOf(c, fixture.appSecret, NOW))).toBe(NOW.getTime() / 1000);
      });

      test("event() and deliveryId() read the fixture's delivery", async () => {
        const { req } = await deliver(c, NOW);
        const ctx = contextOf(c, fixture.appSecret, NOW);
        expect(plugin.deliveryId ? plugin.deliveryId(req, ctx) : null).toBe(fixture.deliveryId);
        const body = parseBodyAndText(req.rawBody, req.headers.get("content-type")).value;
        expect(plugin.event ? plugin.event(req, body) : null).toBe(fixture.event);
      });

      // parseJson gives every hook of a request, and the host's own parse, one shared value: a hook
      // that changed it would change the stored body.
      test("its hooks leave the body they read as it arrived", async () => {
        const { req } = await deliver(c, NOW);
        const ctx = contextOf(c, fixture.appSecret, NOW);
        const shared = parseJson(req.rawBody);
        const asSent = parseJson(req.rawBody.slice()); // other bytes object: a parse of its own
        await authenticate(c, req);
        plugin.timestamp?.(req, ctx);
        plugin.deliveryId?.(req, ctx);
        if (handshake) await handshake(req, ctx);
        plugin.event?.(req, shared ?? parseBodyAndText(req.rawBody, req.headers.get("content-type")).value);
        for (const redacting of [false, true]) plugin.decodeBody?.(shared, req, { redacting });
        expect(parseJson(req.rawBody)).toBe(shared);
        expect(shared).toEqual(asSent);
      });

      test.if(handshake !== undefined)("a regular delivery is not taken for a handshake", async () => {
        const { req } = await deliver(c, NOW);
        expect(await handshake!(req, contextOf(c, fixture.appSecret, NOW))).toBeNull();
      });

      // Plugins whose credential does not cover the body say so in their fixture (signsBody: false).
      test.if(fixture.signsBody !== false && !unsigned)("a body with one byte changed fails", async () => {
        const { req } = await deliver(c, NOW);
        for (const at of [0, req.rawBody.length >> 1, req.rawBody.length - 1]) {
          const rawBody = req.rawBody.slice();
          rawBody[at] ^= 0x01;
          expect(await authenticate(c, { ...req, rawBody })).toMatchObject({ ok: false });
          expect((await verifyDirectly(c, { ...req, rawBody })).threw).toBeNull();
        }
      });

      // A recipe whose sign() adds no header carries its credential in the body (Mailgun); its
      // own tests cover a missing or broken signature there.
      test.if(!unsigned)("a missing credential header fails", async () => {
        const { req, signedHeaders, checkedHeaders } = await deliver(c, NOW);
        // A header-signed recipe must declare its signature header.
        if (signedHeaders.length > 0) expect(checkedHeaders.length).toBeGreaterThan(0);
        for (const name of checkedHeaders) {
          const stripped = withHeader(req, name, null);
          expect(await authenticate(c, stripped)).toMatchObject({ ok: false });
          expect((await verifyDirectly(c, stripped)).threw).toBeNull();
        }
      });

      test.if(!unsigned)("a malformed credential header fails without throwing", async () => {
        const { req, checkedHeaders } = await deliver(c, NOW);
        for (const name of checkedHeaders) {
          for (const value of malformedValues(req.headers.get(name) ?? "")) {
            const broken = withHeader(req, name, value);
            const direct = await verifyDirectly(c, broken);
            expect({ name, value, threw: direct.threw }).toEqual({ name, value, threw: null });
            expect({ name, value, result: await authenticate(c, broken) }).toMatchObject({ name, value, result: { ok: false } });
          }
        }
      });

      // A provider that signs with keys it publishes (fetched by the plugin) uses no secret of the trigger's.
      test.if(!unsigned && fixture.providerKeys !== true)("a wrong or empty secret fails", async () => {
        const { req } = await deliver(c, NOW);
        for (const secret of [mutate(fixture.appSecret), ""]) {
          expect(await authenticate(c, req, NOW, secret)).toMatchObject({ ok: false });
          expect((await verifyDirectly(c, req, secret)).threw).toBeNull();
        }
      });

      test.if(tolerance !== undefined)("the declared tolerance holds in both directions", async () => {
        const t = tolerance!;
        for (const skew of [-(t + 5), t + 5]) {
          const { req } = await deliver(c, seconds(skew));
          // The signature itself is valid: the timestamp is what fails.
          expect((await verifyDirectly(c, req)).ok).toBe(true);
          const result = await authenticate(c, req);
          expect(result.ok).toBe(false);
          expect(result.ok ? "" : result.reason).toContain("timestamp");
        }
        for (const skew of [-(t - 1), t - 1]) {
          const { req } = await deliver(c, seconds(skew));
          expect(await authenticate(c, req)).toEqual({ ok: true });
        }
      });

      test("a redelivery keeps its delivery id, or the plugin deduplicates by content", async () => {
        const later = tolerance === undefined ? 60 : Math.min(60, tolerance - 1);
        const first = await deliver(c, NOW);
        const again = await deliver(c, seconds(later));
        expect(await authenticate(c, again.req, seconds(later))).toEqual({ ok: true });
        const idOf = (req: PluginRequest) => (plugin.deliveryId ? plugin.deliveryId(req, contextOf(c, fixture.appSecret, NOW)) : null);
        expect(idOf(again.req)).toBe(idOf(first.req));
        expect(idOf(first.req)).toBe(fixture.deliveryId);
        if (fixture.deliveryId === null) {
          const contentWindow = plugin.contentDedupWindowSeconds ?? 0;
          expect(contentWindow > 0 || (fixture.noDedupReason ?? "").length > 0).toBe(true);
        } else if (plugin.dedupWindowSeconds !== undefined) {
          expect(plugin.dedupWindowSeconds).toBeGreaterThan(0);
        }
      });

      test("credentialHeaders lists every header sign() derives from the secret", async () => {
        const base = await deliver(c, NOW);
        const derived = new Set<string>();
        const compare = (other: Delivery) => {
          for (const name of base.signedHeaders) if (other.req.headers.get(name) !== base.req.headers.get(name)) derived.add(name);
        };
        try {
          compare(await deliver(c, NOW, mutate(signingKeyOf(c))));
        } catch {
          // A changed private key may no longer parse; the randomised re-signing below still tells.
        }
        compare(await deliver(c, NOW)); // ECDSA signatures differ on every signing
        const declared = new Set((plugin.credentialHeaders ?? []).map((name) => name.toLowerCase()));
        expect([...derived].filter((name) => !declared.has(name))).toEqual([]);
      });

      test("hooks never throw on garbage", async () => {
        const { req, signedHeaders } = await deliver(c, NOW);
        const bodies: Array<string | Uint8Array> = [
          "",
          "not json",
          "{",
          "[]",
          "null",
          "[1,{}]",
          '{"signature":{"timestamp":"x","token":1}}',
          "a=%zz&&=&b",
          Uint8Array.from([0xff, 0xfe, 0x00, 0x7b]),
        ];
        const ctx = contextOf(c, fixture.appSecret, NOW);
        for (const body of bodies) {
          const rawBody = typeof body === "string" ? encoder.encode(body) : body;
          for (const headers of [req.headers, new Headers(), new Headers(signedHeaders.map((name) => [name, "garbage"]))]) {
            for (const url of [req.url, "not a url", TRIGGER_URL + "?bodySHA256=zz"]) {
              for (const method of ["POST", "GET", "HEAD"]) {
                const garbage: PluginRequest = { method, url, headers, rawBody };
                const label = `${method} ${url} ${JSON.stringify(typeof body === "string" ? body : [...body])}`;
                try {
                  await plugin.verify(garbage, ctx);
                  plugin.timestamp?.(garbage, ctx);
                  plugin.deliveryId?.(garbage, ctx);
                  plugin.event?.(garbage, typeof body === "string" ? body : null);
                  plugin.event?.(garbage, { unexpected: [body.length] });
                  for (const parsed of [
                    typeof body === "string" ? body : null,
                    { unexpected: [body.length] },
                    { message: { data: body.length } },
                    { message: { data: "%%%" } },
                  ]) {
                    plugin.decodeBody?.(parsed, garbage, { redacting: false });
                  }
                  await handshake?.(garbage, ctx);
                } catch (error) {
                  throw new Error(`${c.id} threw on ${label}: ${(error as Error).message}`);
                }
              }
            }
          }
        }
      });
    });
  }
}
