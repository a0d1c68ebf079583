// A plugin with one setting of each kind, so the panel's app section can be tested before the
// built-in senders that declare settings (aws-sns, gcp-pubsub) exist. Loaded by global_setup.ts.
export default {
  id: "settings-demo",
  name: "Settings demo",
  secret: { label: "Signing secret", generated: false },
  settings: [
    {
      key: "topicArns",
      label: "Topic ARNs",
      kind: "lines",
      help: "One topic ARN per line.",
      checkLine: (arn) => (/^arn:aws:sns:[a-z0-9-]+:\d{12}:[\w-]+$/.test(arn) ? null : "is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>)"),
    },
    { key: "autoConfirm", label: "Auto-confirm subscriptions", kind: "switch" },
    { key: "audience", label: "Audience", kind: "text", help: "Empty: the trigger's URL." },
  ],
  verify: (req, ctx) => ctx.timingSafeEqual(req.headers.get("x-demo-signature") ?? "", ctx.hmac("sha256", ctx.secret, req.rawBody, "hex")),
  credentialHeaders: ["x-demo-signature"],
};
