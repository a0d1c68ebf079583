import { hmac } from "../auth/digest.ts";
import type { TriggerRecord } from "../records/trigger.ts";

/** The body the sample request sends. */
export const SAMPLE_BODY = JSON.stringify({ event_id: "evt_sample_1", type: "sample.created", data: { id: "123", email: "jane@example.com" } });

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The read-only Curl Command of the panel: the trigger's address, its auth headers and a sample
 * body. Bearer and header modes reference the secret as `$INLET_SECRET`; HMAC modes carry a
 * valid signature of the sample body, so the command runs as is.
 */
export function curlCommand(trigger: TriggerRecord, url: string): string {
  if (trigger.methods.length === 1 && trigger.methods[0] === "GET") {
    const auth = authHeader(trigger);
    return `curl -sS ${auth ? auth + " " : ""}${quote(url + "?type=sample.created&id=123")}`;
  }
  const lines = [`curl -sS -X POST ${quote(url)}`, `-H 'Content-Type: application/json'`];
  const auth = authHeader(trigger);
  if (auth) lines.push(auth);
  lines.push(`--data-raw ${quote(SAMPLE_BODY)}`);
  return lines.join(" \\\n  ");
}

function authHeader(trigger: TriggerRecord): string | null {
  const { auth } = trigger;
  switch (auth.type) {
    case "bearer":
      return `-H "Authorization: Bearer $INLET_SECRET"`;
    case "header":
      return `-H "${auth.headerName}: $INLET_SECRET"`;
    case "basic":
      return `-u ${quote(`${auth.username ?? "inlet"}:`)}"$INLET_SECRET"`;
    case "jwt":
      return `-H "Authorization: Bearer $INLET_JWT"`;
    case "hmac-sha256":
    case "hmac-sha512": {
      const alg = auth.type === "hmac-sha256" ? "sha256" : "sha512";
      const digest = trigger.secret ? hmac(alg, trigger.secret, SAMPLE_BODY, auth.encoding) : "<signature>";
      return `-H ${quote(`${auth.signatureHeader}: ${alg}=${digest}`)}`;
    }
    default:
      return null;
  }
}
