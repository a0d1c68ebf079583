import { curlCommand } from "./curl.ts";
import { triggerUrl } from "../records/trigger_url.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import { isArmed } from "../records/arm_window.ts";
import { destinationsOf } from "../records/destination.ts";
import { shorthandWorkflow } from "./deliveries.ts";

/** The public Trigger shape (docs/api.md#triggerinput-and-trigger): stored settings, derived fields, no secret. */
export function presentTrigger(trigger: TriggerRecord, baseUrl: string) {
  const url = triggerUrl(baseUrl, trigger.token);
  const { auth } = trigger;
  const hmacMode = auth.type === "hmac-sha256" || auth.type === "hmac-sha512";
  return {
    id: trigger.id,
    name: trigger.name,
    app: trigger.app,
    token: trigger.token,
    url,
    curl: curlCommand(trigger, url),
    methods: trigger.methods,
    auth: {
      type: auth.type,
      ...(auth.type === "header" ? { headerName: auth.headerName } : {}),
      ...(hmacMode ? { signatureHeader: auth.signatureHeader, encoding: auth.encoding } : {}),
      ...(auth.type === "basic" ? { username: auth.username } : {}),
      ...(auth.type === "jwt" ? { jwt: auth.jwt } : {}),
      ...(auth.mode !== undefined ? { mode: auth.mode } : {}),
      ...(auth.reportUntil !== undefined ? { reportUntil: auth.reportUntil } : {}),
      hasSecret: trigger.app ? trigger.appSecret !== null || trigger.secret !== null : trigger.secret !== null,
      previousSecretExpiresAt: trigger.previous && Date.parse(trigger.previous.expiresAt) > Date.now() ? trigger.previous.expiresAt : null,
    },
    // Only for a trigger whose plugin adopts its secret (trust on first use); null once it lapsed.
    ...(trigger.armedUntil !== undefined ? { armedUntil: isArmed(trigger.armedUntil, new Date()) ? trigger.armedUntil : null } : {}),
    dedup: trigger.dedup,
    filter: trigger.filter,
    redaction: trigger.redaction,
    response: trigger.response,
    // Both forms while there is one destination named default; otherwise only the list.
    ...withWorkflow(trigger),
    destinations: destinationsOf(trigger),
    schema: trigger.schema ?? { enabled: false },
    maxBodyBytes: trigger.maxBodyBytes ?? null,
    sources: trigger.sources ?? { allow: [] },
    alerts: trigger.alerts ?? [],
    // Only for an app whose plugin declares settings.
    ...(trigger.appSettings !== undefined ? { appSettings: trigger.appSettings } : {}),
    managedBy: trigger.managedBy ?? null,
    createdAt: trigger.createdAt,
    updatedAt: trigger.updatedAt,
  };
}

function withWorkflow(trigger: TriggerRecord) {
  const workflow = shorthandWorkflow(trigger);
  return workflow ? { workflow } : {};
}

export type PublicTrigger = ReturnType<typeof presentTrigger>;
