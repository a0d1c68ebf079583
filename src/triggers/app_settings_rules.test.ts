import { expect, test } from "bun:test";
import type { AppSettingSpec } from "../plugins/types.ts";
import { normalizeTrigger, type NormalizeContext } from "./normalize.ts";
import { ValidationError } from "./validation_error.ts";

// appSettings through the one save path (API, CLI alike): a plugin with settings, one without.
const SNS_SETTINGS: AppSettingSpec[] = [
  { key: "topicArns", label: "Topic ARNs", kind: "lines", checkLine: (arn) => (arn.startsWith("arn:aws:sns:") ? null : "is not an SNS topic ARN") },
  { key: "autoConfirm", label: "Auto-confirm subscriptions", kind: "switch" },
  {
    key: "audience",
    label: "Audience",
    kind: "text",
    check: (value, ctx) => (value === "" || value === ctx.triggerUrl ? null : `must be empty or ${ctx.triggerUrl}`),
  },
  {
    key: "jwksUrl",
    label: "JWKS URL",
    kind: "text",
    check: (url, ctx) => (url === "" ? null : ctx.fetchProblem(String(url), { hosts: /^www\.googleapis\.com$/, purpose: "JWKS" })),
  },
];
const plugins = { sns: { name: "Amazon SNS", settings: SNS_SETTINGS }, github: { name: "GitHub" } } as Record<
  string,
  { name: string; settings?: AppSettingSpec[] }
>;
const context: NormalizeContext = {
  rules: { checkQuery: () => null, checkFilter: () => null, checkPatterns: () => [], checkSchema: () => [] },
  plugins: { has: (id) => id in plugins, ids: () => Object.keys(plugins), get: (id) => plugins[id] },
  fetchRules: { problem: (url) => (url.startsWith("https://www.googleapis.com/") ? null : `JWKS: ${url} is not one of the provider's hosts`) },
  triggerUrl: "https://hooks.example.test/webhooks/tok",
};
const ARN = "arn:aws:sns:us-east-1:123456789012:orders";

function details(input: unknown, current?: Parameters<typeof normalizeTrigger>[2]) {
  try {
    normalizeTrigger(input, context, current);
  } catch (error) {
    if (error instanceof ValidationError) return error.details;
    throw error;
  }
  return [];
}

test("an app trigger stores every setting of its plugin, defaults filled; a change updates the keys it names", () => {
  const created = normalizeTrigger({ name: "sns", app: "sns", appSettings: { topicArns: [ARN] } }, context);
  expect(created.appSettings).toEqual({ topicArns: [ARN], autoConfirm: false, audience: "", jwksUrl: "" });
  const changed = normalizeTrigger({ appSettings: { autoConfirm: true, audience: context.triggerUrl } }, context, created);
  expect(changed.appSettings).toEqual({ topicArns: [ARN], autoConfirm: true, audience: context.triggerUrl!, jwksUrl: "" });
  // A change of another field keeps them.
  expect(normalizeTrigger({ name: "renamed" }, context, changed).appSettings).toEqual(changed.appSettings);
  expect(normalizeTrigger({ name: "sns2", app: "sns" }, context).appSettings).toEqual({ topicArns: [], autoConfirm: false, audience: "", jwksUrl: "" });
});

test("400 details at /appSettings/<key> (and /<i> for a line): unknown keys, wrong kinds, the plugin's checks with the trigger's URL and fetch rules", () => {
  expect(
    details({
      name: "s",
      app: "sns",
      appSettings: { topicArns: [ARN, "arn:aws:s3:::b"], autoConfirm: 1, audience: "https://elsewhere", jwksUrl: "https://evil.test/certs", extra: true },
    }),
  ).toEqual([
    { path: "/appSettings/extra", message: expect.stringContaining("is not a setting of Amazon SNS") },
    { path: "/appSettings/topicArns/1", message: "is not an SNS topic ARN" },
    { path: "/appSettings/autoConfirm", message: "must be true or false (Auto-confirm subscriptions)" },
    { path: "/appSettings/audience", message: `must be empty or ${context.triggerUrl}` },
    { path: "/appSettings/jwksUrl", message: "JWKS: https://evil.test/certs is not one of the provider's hosts" },
  ]);
  // Not an object at all.
  expect(details({ name: "s", app: "sns", appSettings: ["x"] }).map((d) => d.path)).toEqual(["/appSettings"]);
});

test("appSettings on a generic trigger is refused at /appSettings; on a plugin without settings, any key is", () => {
  expect(details({ name: "g", appSettings: {} })).toEqual([{ path: "/appSettings", message: expect.stringContaining("for app triggers only") }]);
  expect(details({ appSettings: { autoConfirm: true } }, normalizeTrigger({ name: "g" }, context)).map((d) => d.path)).toEqual(["/appSettings"]);
  expect(details({ name: "gh", app: "github", appSettings: { topicArns: [] } })).toEqual([
    { path: "/appSettings/topicArns", message: "is not a setting of GitHub (it has none)" },
  ]);
  const github = normalizeTrigger({ name: "gh", app: "github", appSettings: {} }, context);
  expect(github.appSettings).toBeUndefined();
  expect(normalizeTrigger({ name: "g" }, context).appSettings).toBeUndefined();
});
