// An asymmetric --plugins-dir plugin: Ed25519 over "<timestamp>:<raw body>", the public key in
// hex as the trigger's secret, the signature in base64.
const SPEC = {
  header: "x-acme-ed25519",
  timestampHeader: "x-acme-timestamp",
  layout: "{timestamp}:{body}",
  signature: { scheme: "ed25519", encoding: "base64", publicKey: "hex" },
  toleranceSeconds: 120,
};
const recipe = (ctx) => ctx.recipes.signedTimestamp(SPEC);

export default {
  id: "acme-ed25519",
  name: "Acme (Ed25519)",
  secret: { label: "Public key (hex)", generated: false },
  verify: (req, ctx) => recipe(ctx).verify(req, ctx),
  timestamp: (req, ctx) => recipe(ctx).timestamp(req),
  toleranceSeconds: SPEC.toleranceSeconds,
  sign: (req, ctx) => recipe(ctx).sign(req, ctx),
  credentialHeaders: ["x-acme-ed25519"],
  // No delivery id: the exact body is remembered for a day.
  contentDedupWindowSeconds: 86400,
  event: (_req, body) => (body && typeof body.kind === "string" ? body.kind : null),
};
