// A --plugins-dir plugin as an author writes one: a plain object, no imports; the recipe
// helpers come through ctx.recipes. Stripe-style list header, HMAC-SHA512 in base64, and a
// challenge echo declared as data.
const SPEC = {
  header: "Acme-Signature",
  list: { separator: ",", timestampKey: "t", signatureKey: "s1" },
  layout: "{timestamp}.{body}",
  signature: { hmac: "sha512", encoding: "base64" },
  toleranceSeconds: 300,
};
const recipe = (ctx) => ctx.recipes.signedTimestamp(SPEC);

export default {
  id: "acme-list",
  name: "Acme (list header)",
  secret: { label: "Signing secret", generated: false },
  verify: (req, ctx) => recipe(ctx).verify(req, ctx),
  timestamp: (req, ctx) => recipe(ctx).timestamp(req),
  toleranceSeconds: SPEC.toleranceSeconds,
  sign: (req, ctx) => recipe(ctx).sign(req, ctx),
  credentialHeaders: ["acme-signature"],
  deliveryId: (req) => req.headers.get("acme-delivery"),
  dedupWindowSeconds: 86400,
  event: (_req, body) => (body && typeof body.type === "string" ? body.type : null),
  handshakes: [{ when: [{ field: ["type"], equals: "endpoint.verify" }], reply: { echo: ["challenge"], as: "json", key: "challenge" } }],
};
