// A trust-on-first-use --plugins-dir plugin: the provider's first, unsigned POST carries the
// secret in X-Acme-Hook-Secret; later deliveries are an HMAC-SHA256 of the body.
const BODY = { header: "x-acme-hook-signature", algorithm: "sha256", encoding: "hex", prefix: "sha256=" };
const tofu = (ctx) =>
  ctx.recipes.trustOnFirstUse({
    offeredSecret: (req) => (req.headers.has("x-acme-hook-signature") ? null : req.headers.get("x-acme-hook-secret")),
    reply: (secret) => new Response(null, { status: 200, headers: { "x-acme-hook-secret": secret } }),
    verify: (req, c) => c.recipes.hmac(BODY).verify(req, c),
  });

export default {
  id: "acme-tofu",
  name: "Acme (trust on first use)",
  secret: { label: "Hook secret (adopted from the first request)", generated: false },
  // Its handshake hands the trigger its secret: the host adopts it only while the trigger is armed.
  adoptsSecret: true,
  verify: (req, ctx) => tofu(ctx).verify(req, ctx),
  handshake: (req, ctx) => tofu(ctx).handshake(req, ctx),
  sign: (req, ctx) => ctx.recipes.hmac(BODY).sign(req, ctx),
  credentialHeaders: ["x-acme-hook-signature", "x-acme-hook-secret"],
  deliveryId: (req) => req.headers.get("x-acme-delivery"),
  event: (_req, body) => (body && typeof body.event === "string" ? body.event : null),
};
