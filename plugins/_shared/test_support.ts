/**
 * Helpers for the built-in plugins' own tests: build requests the way the host hands them to a
 * plugin, sign them with the plugin's `sign()`, and run the host's authentication.
 *
 * @module
 */
import { authenticateAppRequest, pluginContext, type InletPlugin, type PluginFixture, type PluginRequest } from "../../src/plugins/index.ts";

/** The public trigger URL tests use (what `--base-url` would build). */
export const TRIGGER_URL = "https://inlet.example.com/webhooks/tok_3b1f0c2a";

const encoder = new TextEncoder();

export interface RequestParts {
  method?: string;
  url?: string;
  headers?: Record<string, string> | Headers;
  body?: string | Uint8Array;
}

/** A `PluginRequest` from parts; POST to `TRIGGER_URL` with an empty body by default. */
export function requestOf(parts: RequestParts = {}): PluginRequest {
  const body = parts.body ?? "";
  return {
    method: parts.method ?? "POST",
    url: parts.url ?? TRIGGER_URL,
    headers: new Headers(parts.headers),
    rawBody: typeof body === "string" ? encoder.encode(body) : body,
  };
}

/** The fixture's delivery as the provider would send it at `now`, signed by the plugin's own `sign()`. */
export async function signedFixture(plugin: InletPlugin, fixture: PluginFixture, now: Date, secret?: string): Promise<PluginRequest> {
  if (!plugin.sign) throw new TypeError(`${plugin.id} has no sign()`);
  const unsigned = requestOf({
    url: TRIGGER_URL + (fixture.query ?? ""),
    headers: { "content-type": fixture.contentType ?? "application/json", ...fixture.headers },
    body: fixture.body,
  });
  const signed = await plugin.sign(unsigned, pluginContext(secret ?? fixture.signingKey ?? fixture.appSecret, now));
  const headers = new Headers(unsigned.headers);
  for (const [name, value] of Object.entries(signed.headers)) headers.set(name, value);
  return { ...unsigned, url: signed.url ?? unsigned.url, headers, rawBody: signed.rawBody ?? unsigned.rawBody };
}

/** `true` when the host's authentication (signature, then declared tolerance) accepts `req` at `now`. */
export async function accepted(plugin: InletPlugin, req: PluginRequest, secret: string, now: Date): Promise<boolean> {
  return (await authenticateAppRequest(plugin, req, pluginContext(secret, now))).ok;
}

/** A copy of `req` with some headers replaced (a `null` value removes the header). */
export function withHeaders(req: PluginRequest, changes: Record<string, string | null>): PluginRequest {
  const headers = new Headers(req.headers);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return { ...req, headers };
}

/** A copy of `req` with one body byte flipped. */
export function tampered(req: PluginRequest): PluginRequest {
  const rawBody = req.rawBody.slice();
  rawBody[rawBody.length >> 1] ^= 0x01;
  return { ...req, rawBody };
}

/** The plain object a `Headers` holds, for SDK verifiers that take a record. */
export function headerRecord(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers.entries());
}
