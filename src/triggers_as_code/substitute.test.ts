import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatConfigError } from "./config_error.ts";
import { substitute, type SubstituteOptions } from "./substitute.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-config-substitute-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = { ORDERS_SECRET: "s3cret-from-env-0123", REGION: "eu", EMPTY: "" };

function substituted(document: unknown, options: SubstituteOptions = {}) {
  const result = substitute(document, { env, baseDir: dir, ...options });
  if (!result.ok) throw new Error(result.errors.map(formatConfigError).join("\n"));
  return result.value;
}
function errors(document: unknown, options: SubstituteOptions = {}) {
  const result = substitute(document, { env, baseDir: dir, ...options });
  return result.ok ? [] : result.errors.map(formatConfigError);
}

test("${NAME} takes the environment variable, inside any string value, and the paths that held one are listed", () => {
  const { document, substitutedPaths } = substituted({
    triggers: [
      {
        name: "orders-${REGION}",
        auth: { type: "bearer", secret: "${ORDERS_SECRET}" },
        workflow: { kind: "http", url: "https://x.example/${REGION}/${EMPTY}hook" },
      },
    ],
  });
  expect(document).toEqual({
    triggers: [{ name: "orders-eu", auth: { type: "bearer", secret: "s3cret-from-env-0123" }, workflow: { kind: "http", url: "https://x.example/eu/hook" } }],
  });
  expect(substitutedPaths).toEqual(["/triggers/0/name", "/triggers/0/auth/secret", "/triggers/0/workflow/url"]);
});

test("keys, numbers and booleans are never touched; a substituted value is not read again", () => {
  const { document, substitutedPaths } = substituted(
    { triggers: [{ name: "h", workflow: { kind: "http", url: "https://x.example", headers: { "${REGION}": "v" } }, maxBodyBytes: 5, n: true }] },
    { env: { ...env, REGION: "${ORDERS_SECRET}" } },
  );
  expect(document).toEqual({
    triggers: [{ name: "h", workflow: { kind: "http", url: "https://x.example", headers: { "${REGION}": "v" } }, maxBodyBytes: 5, n: true }],
  });
  expect(substitutedPaths).toEqual([]);
  expect(substituted({ a: "${REGION}" }, { env: { REGION: "${ORDERS_SECRET}" } }).document).toEqual({ a: "${ORDERS_SECRET}" });
});

test("${file:PATH} takes the file's contents with one trailing newline removed; a relative path is from baseDir", () => {
  writeFileSync(join(dir, "github"), "from-a-file-0123456789\n\n");
  writeFileSync(join(dir, "crlf"), "windows-line-0123456789\r\n");
  const { document, substitutedPaths } = substituted({ triggers: [{ appSecret: `\${file:${join(dir, "github")}}`, b: "${file:crlf}" }] });
  expect(document).toEqual({ triggers: [{ appSecret: "from-a-file-0123456789\n", b: "windows-line-0123456789" }] });
  expect(substitutedPaths).toEqual(["/triggers/0/appSecret", "/triggers/0/b"]);
});

test("$${ is a literal ${, as in a script's template literal; $$ alone stays $$", () => {
  const source = "export default (t) => ({ body: `$${t.body.id} costs $$5 and $$${t.body.n}` })";
  const { document, substitutedPaths } = substituted({ triggers: [{ workflow: { kind: "script", source } }] });
  expect((document as { triggers: Array<{ workflow: { source: string } }> }).triggers[0].workflow.source).toBe(
    "export default (t) => ({ body: `${t.body.id} costs $$5 and $${t.body.n}` })",
  );
  expect(substitutedPaths).toEqual([]);
});

test("an unset variable or an unreadable file is an error naming it and the trigger and field where it was used; every one is reported", () => {
  writeFileSync(join(dir, "locked"), "x");
  chmodSync(join(dir, "locked"), 0o000);
  const locked = process.getuid?.() === 0 ? [] : [`billing: /appSecret: cannot read the file ${join(dir, "locked")}: permission denied`];
  expect(
    errors({
      triggers: [
        { name: "orders", auth: { type: "bearer", secret: "${ORDERS_SECRETT}" }, token: "${ORDERS_TOKEN}" },
        { name: "github", app: "github", appSecret: "${file:/nonexistent/inlet/github}" },
        { workflow: { kind: "http", url: "${HOOK_URL}" } },
        ...(locked.length ? [{ name: "billing", appSecret: "${file:locked}" }] : []),
      ],
      prune: "${PRUNE}",
    }),
  ).toEqual([
    "orders: /auth/secret: the environment variable ORDERS_SECRETT is not set",
    "orders: /token: the environment variable ORDERS_TOKEN is not set",
    "github: /appSecret: cannot read the file /nonexistent/inlet/github: no such file",
    "triggers[2]: /workflow/url: the environment variable HOOK_URL is not set",
    ...locked,
    "/prune: the environment variable PRUNE is not set",
  ]);
});

test("a ${…} that is no variable name or file, or has no closing }, says how to write a literal", () => {
  expect(errors({ triggers: [{ name: "s", workflow: { kind: "script", source: "x => `${x.id}`" } }] })).toEqual([
    "s: /workflow/source: ${x.id} is neither an environment variable (letters, digits, _) nor file:PATH: write $${ for a literal ${ (as in a script's template literal)",
  ]);
  expect(errors({ triggers: [{ name: "s", filter: { expression: "${A" } }] })).toEqual([
    "s: /filter/expression: ${ without a closing }: write $${ for a literal ${ (as in a script's template literal)",
  ]);
  expect(errors({ a: "${}" })).toEqual([expect.stringMatching(/^\/a: \$\{\} is neither/)]);
});

test("YAML aliases are expanded as copies; one that contains itself is an error, not a hang", () => {
  const shared = { type: "bearer" };
  const { document } = substituted({
    triggers: [
      { name: "a", auth: shared },
      { name: "b", auth: shared },
    ],
  });
  expect(document).toEqual({
    triggers: [
      { name: "a", auth: { type: "bearer" } },
      { name: "b", auth: { type: "bearer" } },
    ],
  });
  const looped: Record<string, unknown> = { type: "bearer" };
  looped.self = looped;
  expect(errors({ triggers: [{ name: "a", auth: looped }] })).toEqual([
    "a: /auth/self: a YAML alias here refers to a value that contains it: the file would never end",
  ]);
  expect(errors(Bun.YAML.parse("triggers: &t\n  - name: x\n    more: *t\n"))).toEqual([
    "x: /more: a YAML alias here refers to a value that contains it: the file would never end",
  ]);
});
