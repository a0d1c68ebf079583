/**
 * GitLab: a plain shared token in `X-Gitlab-Token`, compared in constant time. GitLab signs
 * nothing, so the body is not covered (the fixture says `signsBody: false`).
 *
 * GitLab's newer optional "signing token" (Standard Webhooks headers, behind a feature flag) is
 * not handled here; the `standard-webhooks` plugin verifies that recipe.
 */
import { cannotSign, definePlugin, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "gitlab",
  name: "GitLab",
  secret: { label: "Secret token", generated: false },
  verify(req, ctx) {
    const token = req.headers.get("x-gitlab-token");
    if (!token || !ctx.secret) return false;
    return ctx.timingSafeEqual(token, ctx.secret);
  },
  sign(_req, ctx) {
    if (!ctx.secret) throw cannotSign("the GitLab secret token is empty");
    return { headers: { "X-Gitlab-Token": ctx.secret } };
  },
  credentialHeaders: ["x-gitlab-token"],
  // Idempotency-Key (GitLab 17.4 and later) is the same on every retry of a hook execution.
  // X-Gitlab-Webhook-UUID changes per request, so it is no delivery id.
  deliveryId: (req) => req.headers.get("idempotency-key") || null,
  dedupWindowSeconds: 86400,
  // The body's machine name (`push`, `merge_request`, `pipeline`…; `event_name` for system
  // hooks) rather than the header's label (`Push Hook`).
  event: (req, body) => stringAt(body, "object_kind") ?? stringAt(body, "event_name") ?? (req.headers.get("x-gitlab-event") || null),
});
