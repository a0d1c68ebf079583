import { expect, test } from "bun:test";
import { resolveAppSettings, settingsWithDefaults } from "./app_settings.ts";
import { pluginContext } from "./context.ts";
import { pluginProblems } from "./registry.ts";
import type { AppSettingCheckContext, AppSettingSpec } from "./types.ts";

const SNS_ARN = /^arn:aws:sns:[a-z0-9-]+:\d{12}:[\w-]+$/;
const SETTINGS: AppSettingSpec[] = [
  {
    key: "topicArns",
    label: "Topic ARNs",
    kind: "lines",
    check: (arns) => ((arns as string[]).length ? null : "add the ARN of at least one topic"),
    checkLine: (arn) => (SNS_ARN.test(arn) ? null : "is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>)"),
  },
  { key: "autoConfirm", label: "Auto-confirm subscriptions", kind: "switch" },
  {
    key: "audience",
    label: "Audience",
    kind: "text",
    help: "Default: the trigger's URL",
    check: (v, ctx) => (v === "" || v === ctx.triggerUrl || String(v).startsWith("https://") ? null : "must be an https URL"),
  },
  { key: "region", label: "Region", kind: "text", default: "us-east-1" },
];
const PLUGIN = { name: "Acme SNS", settings: SETTINGS };
const CTX: AppSettingCheckContext = { triggerUrl: "http://hooks.example.test/webhooks/tok", fetchProblem: () => null };
const ARN = "arn:aws:sns:us-east-1:123456789012:orders";

test("every declared setting is filled: given values (trimmed), else defaults of their kind or declared", () => {
  const { settings, problems } = resolveAppSettings(PLUGIN, { topicArns: [` ${ARN} `] }, undefined, CTX);
  expect(problems).toEqual([]);
  expect(settings).toEqual({ topicArns: [ARN], autoConfirm: false, audience: "", region: "us-east-1" });
});

test("a change names only the keys it changes; null sets one back to its default", () => {
  const current = { topicArns: [ARN], autoConfirm: true, audience: "https://a.example", region: "eu-west-1" };
  expect(resolveAppSettings(PLUGIN, { autoConfirm: false }, current, CTX).settings).toEqual({ ...current, autoConfirm: false });
  expect(resolveAppSettings(PLUGIN, { region: null, audience: null }, current, CTX).settings).toEqual({ ...current, region: "us-east-1", audience: "" });
  // A key the plugin no longer declares is dropped from what is stored, not refused.
  expect(resolveAppSettings(PLUGIN, {}, { ...current, gone: "x" } as never, CTX)).toEqual({ settings: current, problems: [] });
});

test("unknown keys, wrong kinds, bad lines and each check's problem: one detail each, at its path", () => {
  const { problems } = resolveAppSettings(
    PLUGIN,
    { topicArns: [ARN, "arn:aws:s3:::bucket", 7, "  "], autoConfirm: "yes", audience: "ftp://x", colour: "blue", "a/b": 1 },
    undefined,
    CTX,
  );
  expect(problems).toEqual([
    { path: "/appSettings/colour", message: "is not a setting of Acme SNS (its settings are topicArns, autoConfirm, audience, region)" },
    { path: "/appSettings/a~1b", message: expect.stringContaining("is not a setting of Acme SNS") },
    { path: "/appSettings/topicArns/2", message: "must be a string" },
    { path: "/appSettings/topicArns/3", message: "is empty: remove the line" },
    { path: "/appSettings/autoConfirm", message: "must be true or false (Auto-confirm subscriptions)" },
    { path: "/appSettings/audience", message: "must be an https URL" },
  ]);
  // With the kinds right, the per-line check names the line, and the whole-value check speaks for an empty list.
  expect(resolveAppSettings(PLUGIN, { topicArns: [ARN, "arn:aws:s3:::bucket"] }, undefined, CTX).problems).toEqual([
    { path: "/appSettings/topicArns/1", message: "is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>)" },
  ]);
  expect(resolveAppSettings(PLUGIN, {}, undefined, CTX).problems).toEqual([{ path: "/appSettings/topicArns", message: "add the ARN of at least one topic" }]);
  expect(resolveAppSettings(PLUGIN, { topicArns: "one" }, undefined, CTX).problems).toEqual([
    { path: "/appSettings/topicArns", message: "must be an array of strings (one per line) (Topic ARNs)" },
  ]);
  expect(resolveAppSettings(PLUGIN, { topicArns: [ARN], region: 1 }, undefined, CTX).problems).toEqual([
    { path: "/appSettings/region", message: "must be a string (Region)" },
  ]);
});

test("checks get the trigger's URL and the fetch rules; a check that throws is a problem, never a pass", () => {
  const seen: unknown[] = [];
  const spec: AppSettingSpec = {
    key: "jwksUrl",
    label: "JWKS URL",
    kind: "text",
    check: (url, ctx) => {
      seen.push(ctx.triggerUrl);
      return url === "" ? null : ctx.fetchProblem(String(url), { hosts: /^www\.googleapis\.com$/, purpose: "JWKS" });
    },
  };
  const fetchProblem = (url: string) => (url.startsWith("https://www.googleapis.com/") ? null : `JWKS: ${url} is not allowed`);
  const ctx = { ...CTX, fetchProblem };
  expect(resolveAppSettings({ name: "G", settings: [spec] }, { jwksUrl: "https://evil.test/certs" }, undefined, ctx).problems).toEqual([
    { path: "/appSettings/jwksUrl", message: "JWKS: https://evil.test/certs is not allowed" },
  ]);
  expect(seen).toEqual([CTX.triggerUrl]);
  const throwing: AppSettingSpec = {
    key: "x",
    label: "X",
    kind: "text",
    check: () => {
      throw new Error("boom");
    },
  };
  expect(resolveAppSettings({ name: "G", settings: [throwing] }, { x: "1" }, undefined, ctx).problems).toEqual([
    { path: "/appSettings/x", message: "could not be checked: boom" },
  ]);
});

test("a plugin without settings: any key is refused, and there is nothing to store", () => {
  expect(resolveAppSettings({ name: "GitHub" }, { topicArns: [] }, undefined, CTX)).toEqual({
    settings: {},
    problems: [{ path: "/appSettings/topicArns", message: "is not a setting of GitHub (it has none)" }],
  });
  expect(resolveAppSettings({ name: "GitHub" }, {}, undefined, CTX)).toEqual({ settings: {}, problems: [] });
});

test("lines and text are bounded", () => {
  const many = Array.from({ length: 201 }, () => ARN);
  expect(resolveAppSettings(PLUGIN, { topicArns: many }, undefined, CTX).problems).toEqual([
    { path: "/appSettings/topicArns", message: "has 201 lines; at most 200" },
  ]);
  expect(resolveAppSettings(PLUGIN, { topicArns: [ARN], region: "x".repeat(2001) }, undefined, CTX).problems).toEqual([
    { path: "/appSettings/region", message: "is longer than 2000 characters" },
  ]);
});

test("ctx.settings: stored values, defaults for the rest, read-only; {} where the plugin declares none", () => {
  const settings = settingsWithDefaults(SETTINGS, { topicArns: [ARN], autoConfirm: true });
  expect(settings).toEqual({ topicArns: [ARN], autoConfirm: true, audience: "", region: "us-east-1" });
  expect(Object.isFrozen(settings) && Object.isFrozen(settings.topicArns)).toBe(true);
  expect(pluginContext("", new Date(), false, { settings }).settings).toBe(settings);
  expect(pluginContext("", new Date()).settings).toEqual({});
});

test("a plugin's settings declaration is checked when it is loaded", () => {
  const base = { id: "acme", name: "Acme", secret: { label: "s", generated: false }, verify: () => true };
  expect(pluginProblems({ ...base, settings: SETTINGS })).toEqual([]);
  expect(pluginProblems({ ...base, settings: "topicArns" })).toEqual(["settings must be an array of { key, label, kind }"]);
  expect(
    pluginProblems({
      ...base,
      settings: [
        { key: "topic-arns", label: "Topic ARNs", kind: "lines" },
        { key: "a", label: "", kind: "list" },
        { key: "a", label: "A again", kind: "switch", default: "yes", check: "no" },
        { key: "b", label: "B", kind: "text", checkLine: () => null, help: 3 },
        null,
      ],
    }),
  ).toEqual([
    'settings[0].key must match [A-Za-z][A-Za-z0-9_]* (got "topic-arns")',
    "settings[1].label must be a non-empty string (the field's name in the panel)",
    'settings[1].kind must be one of text, lines, switch (got "list")',
    'settings[2].key "a" is declared twice',
    "settings[2].default must be of its kind, switch",
    "settings[2].check must be a function when present",
    "settings[3].help must be a string when present",
    "settings[3].checkLine must be a function, on a setting of kind lines",
    "settings[4] must be { key, label, kind }",
  ]);
});
