import { createPrivateKey, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import { SignJWT } from "jose";
import type { JwtConfig } from "../auth/jwt_rules.ts";
import { hmac } from "../auth/digest.ts";
import { UsageError } from "../config/usage_error.ts";
import { settingsWithDefaults } from "../plugins/app_settings.ts";
import { pluginContext } from "../plugins/context.ts";
import type { PluginRegistry } from "../plugins/registry.ts";
import { triggerUrl } from "../records/trigger_url.ts";
import type { TriggerRecord } from "../records/trigger.ts";

/** A JWT valid for five minutes: HS256 with the trigger's key, or a public-key algorithm with --key (a PEM private key). */
async function signJwt(jwt: JwtConfig, secret: string, keyFile: string | undefined): Promise<string> {
  const alg = jwt.algorithms[0];
  let key: Uint8Array | KeyObject;
  if (alg === "HS256") key = new TextEncoder().encode(secret);
  else {
    if (!keyFile) throw new UsageError(`this trigger verifies ${alg} tokens: give the signer's private key with --key FILE (PEM)`);
    try {
      key = createPrivateKey(readFileSync(keyFile, "utf8"));
    } catch (error) {
      throw new UsageError(`--key ${keyFile} is not a PEM private key: ${(error as Error).message}`);
    }
  }
  const token = new SignJWT({}).setProtectedHeader({ alg }).setIssuedAt().setExpirationTime("5m");
  if (jwt.issuer) token.setIssuer(jwt.issuer);
  if (jwt.audience) token.setAudience(jwt.audience);
  return token.sign(key);
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export interface SignOptions {
  bodyFile: string;
  contentType: string;
  /** Private key for asymmetric recipes (Discord, SendGrid), or another signing secret. */
  keyFile?: string;
  query?: string;
}

/**
 * A curl command that sends `bodyFile` to the trigger correctly signed: the generic modes'
 * credential headers, or the app plugin's own `sign()`, so a trigger can be tested without the provider.
 */
export async function signedCurl(trigger: TriggerRecord, baseUrl: string, plugins: PluginRegistry, options: SignOptions): Promise<string> {
  let body: Uint8Array;
  try {
    body = new Uint8Array(readFileSync(options.bodyFile === "-" ? 0 : options.bodyFile));
  } catch (error) {
    throw new UsageError(`cannot read the body file ${options.bodyFile}: ${(error as Error).message}`);
  }
  let replacedBody = false;
  let url = `${triggerUrl(baseUrl, trigger.token)}${options.query ? (options.query.startsWith("?") ? options.query : `?${options.query}`) : ""}`;
  const headers: Record<string, string> = { "Content-Type": options.contentType };
  if (trigger.app) {
    const plugin = plugins.get(trigger.app);
    if (!plugin) throw new UsageError(`plugin ${trigger.app} is not loaded`);
    if (!plugin.sign) throw new UsageError(`plugin ${trigger.app} cannot sign requests`);
    const key = options.keyFile ? readFileSync(options.keyFile, "utf8").trim() : (trigger.appSecret ?? trigger.secret ?? "");
    const signed = await plugin.sign(
      { method: "POST", url, rawBody: body, headers: new Headers(headers) },
      pluginContext(key, new Date(), false, { settings: settingsWithDefaults(plugin.settings, trigger.appSettings) }),
    );
    Object.assign(headers, signed.headers);
    if (signed.url) url = signed.url;
    // Some recipes sign inside the body (Mailgun) or stamp it (Linear): send the body they return.
    if (signed.rawBody) body = signed.rawBody;
    replacedBody = signed.rawBody !== undefined;
  } else {
    const { auth } = trigger;
    const secret = trigger.secret ?? "";
    if (auth.type === "bearer") headers.Authorization = `Bearer ${secret}`;
    else if (auth.type === "header") headers[auth.headerName!] = secret;
    else if (auth.type === "hmac-sha256" || auth.type === "hmac-sha512") {
      const alg = auth.type === "hmac-sha256" ? "sha256" : "sha512";
      headers[auth.signatureHeader] = `${alg}=${hmac(alg, secret, body, auth.encoding)}`;
    } else if (auth.type === "basic") headers.Authorization = `Basic ${Buffer.from(`${auth.username ?? "inlet"}:${secret}`).toString("base64")}`;
    else if (auth.type === "jwt") headers.Authorization = `Bearer ${await signJwt(auth.jwt!, secret, options.keyFile)}`;
  }
  const lines = [`curl -sS -X POST ${quote(url)}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`-H ${quote(`${name}: ${value}`)}`);
  lines.push(replacedBody ? `--data-raw ${quote(new TextDecoder().decode(body))}` : `--data-binary @${quote(options.bodyFile)}`);
  return lines.join(" \\\n  ");
}
