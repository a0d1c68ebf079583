import { randomBytes } from "node:crypto";
import { base64url } from "./codec.ts";

/** A webhook token: 24 CSPRNG bytes as base64url (32 characters). */
export function newWebhookToken(): string {
  return base64url.encode(randomBytes(24));
}

/** A generated secret (bearer token, header secret, signing secret): 32 CSPRNG bytes as base64url (43 characters). */
export function newSecret(): string {
  return base64url.encode(randomBytes(32));
}
