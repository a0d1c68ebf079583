/**
 * GitHub: HMAC-SHA256 of the raw body, hex, in `X-Hub-Signature-256` as `sha256=<hex>`
 * (docs "Validating webhook deliveries"; `@octokit/webhooks-methods`).
 *
 * The legacy SHA-1 `X-Hub-Signature` is not accepted on its own: GitHub sends both headers
 * whenever a secret is set, and SHA-256 is the one its docs say to check. It is still a
 * credential header, so it is kept out of `$trigger`.
 */
import { definePlugin, hmacRecipe } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "github",
  name: "GitHub",
  // GitHub lets the user type any secret; inlet generates a strong one to paste there.
  secret: { label: "Webhook secret", generated: true },
  ...hmacRecipe({
    header: "X-Hub-Signature-256",
    algorithm: "sha256",
    encoding: "hex",
    prefix: "sha256=",
    alsoCredentialHeaders: ["X-Hub-Signature"],
  }),
  // X-GitHub-Delivery is kept when a delivery is redelivered. GitHub never retries on its own;
  // redelivery is manual, so a day catches double clicks and impatient resends.
  deliveryId: (req) => req.headers.get("x-github-delivery") || null,
  dedupWindowSeconds: 86400,
  // `push`, `pull_request`, `ping`…; the action (`opened`, `closed`) stays in the body.
  event: (req) => req.headers.get("x-github-event") || null,
});
