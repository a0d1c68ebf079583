import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatConfigError, type ConfigResult } from "./config_error.ts";
import { formatOf, parseConfigText, readConfigFile } from "./parse_config.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-config-parse-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const errorsOf = (result: ConfigResult<unknown>) => (result.ok ? [] : result.errors.map(formatConfigError));
const valueOf = (result: ConfigResult<unknown>) => {
  if (!result.ok) throw new Error(result.errors.map(formatConfigError).join("\n"));
  return result.value;
};

test("the format is told by the extension, in any case", () => {
  expect([formatOf("a.yaml"), formatOf("dir.v2/a.YML"), formatOf("a.json"), formatOf("a.toml"), formatOf("yaml")]).toEqual([
    "yaml",
    "yaml",
    "json",
    null,
    null,
  ]);
});

test("YAML as people write it: comments, anchors and merge keys, block and folded strings, quoted and plain ${…}", () => {
  const text = [
    "# shared settings",
    "signed: &signed",
    "  auth:",
    "    type: hmac-sha256   # GitHub-style",
    "triggers:",
    "  - name: orders",
    "    <<: *signed",
    '    token: "${ORDERS_TOKEN}"',
    "    workflow:",
    "      kind: script",
    "      source: |",
    "        export default ($trigger) => ({",
    "          status: 202,",
    "        })",
    "    note: >",
    "      one",
    "      two",
    "    plain: ${PLAIN}",
    "prune: false",
  ].join("\n");
  expect(valueOf(parseConfigText(text, "yaml", "inlet.yaml"))).toEqual({
    signed: { auth: { type: "hmac-sha256" } },
    triggers: [
      {
        name: "orders",
        auth: { type: "hmac-sha256" },
        token: "${ORDERS_TOKEN}",
        workflow: { kind: "script", source: "export default ($trigger) => ({\n  status: 202,\n})\n" },
        note: "one two\n",
        plain: "${PLAIN}",
      },
    ],
    prune: false,
  });
});

test("an anchor defined inside the triggers, merged with a key of its own; yes, on and dates stay strings (YAML 1.2)", () => {
  const text = [
    "triggers:",
    "  - name: orders",
    "    auth: &signed",
    "      type: hmac-sha256",
    "      signatureHeader: X-Shop-Signature",
    "  - name: refunds",
    "    auth:",
    "      <<: *signed",
    '      secret: "${REFUNDS_SECRET}"',
    "    note: [yes, on, 2026-01-01]",
  ].join("\n");
  expect(valueOf(parseConfigText(text, "yaml", "inlet.yaml"))).toEqual({
    triggers: [
      { name: "orders", auth: { type: "hmac-sha256", signatureHeader: "X-Shop-Signature" } },
      { name: "refunds", auth: { type: "hmac-sha256", signatureHeader: "X-Shop-Signature", secret: "${REFUNDS_SECRET}" }, note: ["yes", "on", "2026-01-01"] },
    ],
  });
});

test("JSON, with or without a byte order mark", () => {
  expect(valueOf(parseConfigText('{"triggers":[{"name":"orders"}]}', "json", "c.json"))).toEqual({ triggers: [{ name: "orders" }] });
  expect(valueOf(parseConfigText('\uFEFF{"triggers":[]}', "json", "c.json"))).toEqual({ triggers: [] });
  expect(valueOf(parseConfigText("\uFEFFtriggers: []\n", "yaml", "c.yaml"))).toEqual({ triggers: [] });
});

test("a YAML syntax error names the file and the line where the broken construct starts", () => {
  const badIndent = "triggers:\n  - name: a\n    auth:\n      type: bearer\n   methods: [POST]\n  - name: b\n";
  expect(errorsOf(parseConfigText(badIndent, "yaml", "inlet.yaml"))).toEqual(["inlet.yaml:5: not valid YAML (Unexpected token)"]);
  const unclosed = 'triggers:\n  - name: a\n    token: "abc\n  - name: b\n';
  expect(errorsOf(parseConfigText(unclosed, "yaml", "inlet.yaml"))).toEqual([expect.stringMatching(/^inlet\.yaml:3: not valid YAML \(.+\)$/)]);
  expect(errorsOf(parseConfigText("a: 1\nb: *nowhere\n", "yaml", "x.yml"))).toEqual(["x.yml:2: not valid YAML (Unresolved alias)"]);
  expect(errorsOf(parseConfigText("a:\n\t- tab\n", "yaml", "x.yml"))).toEqual(["x.yml:2: not valid YAML (Tab characters cannot be used as indentation)"]);
});

test("a JSON syntax error names the file and line, without quoting what it met (it could be a secret)", () => {
  const text = '{\n  "triggers": [\n    { "name": "orders", "appSecret": sk_live_abcdef123456 }\n  ]\n}';
  const errors = errorsOf(parseConfigText(text, "json", "inlet.json"));
  expect(errors).toEqual(["inlet.json:3: not valid JSON (expected a JSON value)"]);
  expect(errors.join()).not.toContain("sk_live");
  expect(errorsOf(parseConfigText('{"triggers": [\n', "json", "inlet.json"))).toEqual(["inlet.json:1: not valid JSON (expected a JSON value)"]);
});

test("reading: by extension; a missing file or an unknown extension is an error naming the file", () => {
  const yaml = join(dir, "inlet.yml");
  writeFileSync(yaml, "triggers:\n  - name: orders\n");
  expect(valueOf(readConfigFile(yaml))).toEqual({ triggers: [{ name: "orders" }] });
  const json = join(dir, "inlet.JSON");
  writeFileSync(json, '{"triggers": []}');
  expect(valueOf(readConfigFile(json))).toEqual({ triggers: [] });
  expect(readConfigFile(join(dir, "absent.yaml"))).toEqual({
    ok: false,
    errors: [{ code: "unreadable_file", file: join(dir, "absent.yaml"), message: "cannot be read: no such file" }],
  });
  expect(errorsOf(readConfigFile(join(dir, "inlet.toml")))).toEqual([
    `${join(dir, "inlet.toml")}: a config file is YAML (.yaml, .yml) or JSON (.json), told by its extension`,
  ]);
});
