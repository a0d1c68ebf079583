import { appDedupKeyHash } from "../dedup/dedup_key.ts";
import { ExactNumber, numberText } from "../json/index.ts";
import { authenticateAppRequest } from "../plugins/authenticate.ts";
import { settingsWithDefaults } from "../plugins/app_settings.ts";
import { pluginContext, type PluginHost } from "../plugins/context.ts";
import type { ProviderFetch } from "../plugins/provider_fetch.ts";
import { hostHandshake } from "../plugins/host_handshake.ts";
import type { InletPlugin, PluginContext, PluginRequest } from "../plugins/types.ts";
import { candidateSecrets } from "../records/candidate_secrets.ts";
import { triggerUrl } from "../records/trigger_url.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import { isArmed } from "../records/arm_window.ts";
import { exceedsDepth } from "../sandbox/depth.ts";
import { firstPassing } from "./first_passing.ts";
import { notArmedReason } from "./not_armed.ts";
import type { Arrival } from "./arrival.ts";
import type { Verified } from "./authenticate.ts";
import type { SenderProtocol } from "./sender_protocol.ts";

const DEFAULT_DELIVERY_WINDOW_SECONDS = 86400;

/**
 * An app trigger: the plugin's recipe verifies, the host enforces its declared timestamp
 * tolerance, and the provider's delivery id (or else the exact body's hash) is the dedup key.
 * `baseUrl` is the public base URL: plugins sign URLs built from it, never from `Host`;
 * `providerFetch` is where the plugin's fetches go (`--provider-fetch-allow`).
 */
export function appProtocol(trigger: TriggerRecord, plugin: InletPlugin, baseUrl: () => string, providerFetch?: ProviderFetch): SenderProtocol {
  // The trigger's settings, defaults filled once per trigger version.
  const host: PluginHost = { settings: settingsWithDefaults(plugin.settings, trigger.appSettings), providerFetch };
  const requestOf = (arrival: Arrival, rawBody: Uint8Array): PluginRequest => ({
    method: arrival.method,
    url: `${triggerUrl(baseUrl(), trigger.token)}${arrival.query}`,
    headers: arrival.headers,
    rawBody,
  });
  // Trust on first use: a handshake may hand the trigger a new secret only while it is armed.
  const armedAt = (now: Date) => plugin.adoptsSecret === true && isArmed(trigger.armedUntil, now);
  const contextOf = (arrival: Arrival, armed = armedAt(arrival.now)): PluginContext =>
    pluginContext(trigger.appSecret ?? trigger.secret ?? "", arrival.now, armed, host);
  // Asked once per request: the dedup key and `$trigger.app` both carry it.
  const deliveryIds = new WeakMap<Verified, string | null>();
  const deliveryIdOf = (verified: Verified): string | null => {
    if (!deliveryIds.has(verified)) {
      deliveryIds.set(verified, textOf(safeCall(() => plugin.deliveryId?.(requestOf(verified.arrival, verified.rawBody), contextOf(verified.arrival)))));
    }
    return deliveryIds.get(verified) ?? null;
  };
  // A handshake() function or declared handshakes (the registry compiles them too; this also
  // covers a plugin handed in directly).
  const handshake = hostHandshake(plugin);

  // Methods such as CloudEvents' OPTIONS: verified like a POST, then only a handshake may answer them.
  const verifiedCheckOnlyMethods = handshake ? (plugin.handshakeMethods ?? []).map((m) => m.toUpperCase()) : [];

  return {
    methods: handshake ? ["POST", "GET", "HEAD", ...verifiedCheckOnlyMethods] : ["POST"],
    // GET/HEAD URL checks (Dropbox, Mailchimp, Mandrill) are unsigned by the providers.
    checkOnlyMethods: handshake ? ["GET", "HEAD"] : [],
    verifiedCheckOnlyMethods,
    credentialHeaders: new Set(plugin.credentialHeaders ?? []),
    credentialQuery: new Set((plugin.credentialQuery ?? []).map((name) => name.toLowerCase())),
    // The current secret, then the previous one while a rotation's overlap lasts (a provider such as
    // Stripe signs with both during its own roll).
    authenticate: async (arrival, rawBody) => {
      const previous = trigger.previous;
      const candidates = candidateSecrets(trigger.appSecret ?? trigger.secret, previous?.appSecret ?? previous?.secret, previous?.expiresAt, arrival.now);
      const request = requestOf(arrival, rawBody);
      const armed = armedAt(arrival.now);
      const result = await firstPassing(
        candidates,
        (secret) => authenticateAppRequest(plugin, request, pluginContext(secret, arrival.now, armed, host)),
        () => authenticateAppRequest(plugin, request, contextOf(arrival)),
      );
      if (result.ok || armed || plugin.adoptsSecret !== true) return result;
      // A set-up offering a new secret fails only for want of arming: the owner reads that, and how to arm.
      const ifArmed = await authenticateAppRequest(plugin, request, contextOf(arrival, true));
      return ifArmed.ok ? { ok: false, reason: notArmedReason(trigger) } : result;
    },
    handshake: handshake ? answerHandshake(plugin, handshake, requestOf, contextOf) : undefined,
    // The delivery id, else the raw bytes' hash: never the parsed body.
    async dedupClaim(verified) {
      const key = appDedupKeyHash(deliveryIdOf(verified), verified.rawBody);
      const window = key.byContent ? plugin.contentDedupWindowSeconds : (plugin.dedupWindowSeconds ?? DEFAULT_DELIVERY_WINDOW_SECONDS);
      return window ? { keyHash: key.hash, windowSeconds: window } : null;
    },
    decodeBody: plugin.decodeBody ? decodeWith(plugin.decodeBody, requestOf) : undefined,
    app(verified, body) {
      const event = plugin.event ? textOf(safeCall(() => plugin.event!(requestOf(verified.arrival, verified.rawBody), body))) : null;
      return { id: plugin.id, event, deliveryId: deliveryIdOf(verified) };
    },
  };
}

type RequestOf = (arrival: Arrival, rawBody: Uint8Array) => PluginRequest;

/** A plugin's handshake as the protocol's: its answer, the secret it hands over, and what Activity says. */
function answerHandshake(
  plugin: InletPlugin,
  handshake: NonNullable<ReturnType<typeof hostHandshake>>,
  requestOf: RequestOf,
  contextOf: (arrival: Arrival) => PluginContext,
): NonNullable<SenderProtocol["handshake"]> {
  return async (arrival, rawBody) => {
    const answer = await handshake.call(plugin, requestOf(arrival, rawBody), contextOf(arrival));
    if (answer === null || answer === undefined) return null;
    const response = answer instanceof Response ? answer : answer.response;
    const adoptSecret = answer instanceof Response ? undefined : answer.adoptSecret;
    const detail = answer instanceof Response ? undefined : answer.detail;
    if (adoptSecret && plugin.adoptsSecret !== true) {
      // Its triggers are never armed, so nothing it hands over could be adopted: say why.
      throw new Error("it hands over a secret (adoptSecret), but the plugin does not declare adoptsSecret: true");
    }
    return {
      response,
      adoptSecret,
      detail: typeof detail === "string" && detail !== "" ? detail : `${plugin.name} URL-verification handshake answered; no run`,
    };
  };
}

/** A plugin's decodeBody, kept to the nesting limit and never failing the request. */
function decodeWith(decode: NonNullable<InletPlugin["decodeBody"]>, requestOf: RequestOf): NonNullable<SenderProtocol["decodeBody"]> {
  return (verified, body, redacting) => {
    try {
      const decoded = decode(body, requestOf(verified.arrival, verified.rawBody), { redacting });
      // The parsed body kept the nesting limit; what was decoded inside it must too.
      return exceedsDepth(decoded) ? body : decoded;
    } catch {
      // Odd input the plugin did not expect: the body as parsed, never a failed request.
      return body;
    }
  };
}

/**
 * What a hook gave, as `$trigger.app` text: a string as is, a number (a JSON id) as its decimal
 * text (every digit of one a double cannot hold), anything else (an object, a boolean, "") none.
 * Two object ids must never share a dedup key.
 */
function textOf(value: unknown): string | null {
  if (typeof value === "string") return value === "" ? null : value;
  if (value instanceof ExactNumber) return numberText(value);
  return typeof value === "number" && Number.isFinite(value) ? String(value) : null;
}

/** A plugin hook that throws on odd input yields "none", never a failed request. */
function safeCall<T>(fn: () => T): T | null {
  try {
    return fn();
  } catch {
    return null;
  }
}
