import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli } from "./support/process.ts";

/**
 * `inlet apply`, `inlet diff` and `inlet export` end to end on a SQLite data dir (README
 * "Triggers as code"): the plan on stdout, exit codes, idempotence, dry runs, errors that name the
 * trigger and field with nothing changed, and an export that reproduces URLs and secrets.
 */

const root = mkdtempSync(join(tmpdir(), "inlet-config-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => mkdtempSync(join(root, `data-${n++}-`));

const ORDERS_TOKEN = "orders_token_0123456789_abcdefghij";
const ORDERS_SECRET = "orders-secret-value-9f8e7d6c5b4a";
const GITHUB_SECRET = "github-webhook-secret-from-a-file";
const ENV = { ORDERS_TOKEN, ORDERS_SECRET };

function writeFile(name: string, text: string): string {
  const path = join(root, name);
  writeFileSync(path, text);
  return path;
}

const FILE = writeFile("github-secret", `${GITHUB_SECRET}\n`);
const CONFIG = `triggers:
  - name: orders
    token: "\${ORDERS_TOKEN}"
    auth:
      type: hmac-sha256
      secret: "\${ORDERS_SECRET}"
    filter: { enabled: true, expression: '$.type == "order.paid"' }
  - name: github
    app: github
    appSecret: "\${file:${FILE}}"
  - name: deploys
    auth: { type: bearer }
`;

const list = async (dir: string) => JSON.parse((await cli(["triggers", "list", "--json", "--data-dir", dir])).stdout) as any[];
const byName = async (dir: string) => Object.fromEntries((await list(dir)).map((t) => [t.name, t]));
const reveal = async (dir: string, id: string) =>
  JSON.parse((await cli(["triggers", "show", id, "--reveal", "--data-dir", dir])).stdout).secret as string | null;

test("apply prints the plan and makes the triggers, managed by the config; the same file again changes nothing; diff agrees", async () => {
  const dir = freshDir();
  const config = writeFile("inlet.yaml", CONFIG);
  const first = await cli(["apply", "-f", config, "--data-dir", dir], ENV);
  expect(first).toEqual({ code: 0, stdout: "+ create orders\n+ create github\n+ create deploys\n", stderr: "" });
  const made = await byName(dir);
  expect(made.orders.token).toBe(ORDERS_TOKEN);
  expect(made.orders.managedBy).toBe("config");
  expect(await reveal(dir, made.orders.id)).toBe(ORDERS_SECRET);
  expect(made.deploys.auth.hasSecret).toBe(true);

  expect(await cli(["diff", "-f", config, "--data-dir", dir], ENV)).toEqual({
    code: 0,
    stdout: "= unchanged orders\n= unchanged github\n= unchanged deploys\n",
    stderr: "",
  });
  const again = await cli(["apply", "--file", config, "--data-dir", dir], ENV);
  expect(again).toEqual({ code: 0, stdout: "= unchanged orders\n= unchanged github\n= unchanged deploys\n", stderr: "" });
  expect((await list(dir)).map((t) => [t.name, t.updatedAt])).toEqual(Object.values(made).map((t: any) => [t.name, t.updatedAt]));

  // A change: diff says so (exit 2) and changes nothing; --dry-run the same with exit 0; apply makes it.
  const changed = writeFile(
    "changed.yaml",
    CONFIG.replace("type: bearer", "type: header, headerName: X-Deploy-Key").replace(
      '  - name: github\n    app: github\n    appSecret: "${file:' + FILE + '}"\n',
      "",
    ),
  );
  const diff = await cli(["diff", "-f", changed, "--data-dir", dir], ENV);
  expect(diff).toEqual({ code: 2, stdout: "= unchanged orders\n~ update deploys (auth)\n", stderr: "" });
  expect(await cli(["apply", "-f", changed, "--dry-run", "--data-dir", dir], ENV)).toEqual({
    code: 0,
    stdout: "= unchanged orders\n~ update deploys (auth)\n",
    stderr: "",
  });
  expect((await byName(dir)).deploys.auth.type).toBe("bearer");
  writeFileSync(changed, `${readFileSync(changed, "utf8")}prune: true\n`);
  expect(await cli(["apply", "-f", changed, "--data-dir", dir], ENV)).toEqual({
    code: 0,
    stdout: "= unchanged orders\n~ update deploys (auth)\n- delete github\n",
    stderr: "",
  });
  const after = await byName(dir);
  expect(Object.keys(after).sort()).toEqual(["deploys", "orders"]);
  expect(after.deploys.auth).toMatchObject({ type: "header", headerName: "X-Deploy-Key" });
}, 60_000);

test("an invalid file: exit 1, every error on stderr with its trigger and field, nothing changed; diff exits 1 too", async () => {
  const dir = freshDir();
  const good = writeFile("good.yaml", "triggers:\n  - name: keep\n");
  expect((await cli(["apply", "-f", good, "--data-dir", dir])).code).toBe(0);
  const before = await list(dir);
  const bad = writeFile(
    "bad.yaml",
    `triggers:
  - name: keep
    filter: { enabled: true, expression: "$.a = 1" }
  - name: orders
    token: "\${ORDERS_TOKEN}"
    auth: { type: bearer, secret: "\${ORDERS_SECRET}" }
    dedup: { windowSeconds: 0 }
  - name: short
    auth: { type: bearer, secret: too-short }
`,
  );
  for (const command of ["apply", "diff"]) {
    const refused = await cli([command, "-f", bad, "--data-dir", dir], ENV);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    const lines = refused.stderr.trim().split("\n");
    expect(lines[0]).toStartWith("keep: /filter/expression: ");
    expect(lines).toContain("orders: /dedup/windowSeconds: expected integer to be greater or equal to 1");
    expect(lines).toContain("short: /auth/secret: must be at least 16 characters (it has 9)");
    expect(lines.at(-1)).toBe(`inlet: ${bad}: 3 errors; nothing was changed`);
    for (const secret of [ORDERS_TOKEN, ORDERS_SECRET]) expect(refused.stderr).not.toContain(secret);
  }
  expect(await list(dir)).toEqual(before);
  // And a file that is not there, or a missing -f: an error, exit 1 for diff (2 is "changes").
  expect(await cli(["diff", "-f", join(root, "missing.yaml"), "--data-dir", dir])).toEqual({
    code: 1,
    stdout: "",
    stderr: `${join(root, "missing.yaml")}: cannot be read: no such file\ninlet: ${join(root, "missing.yaml")}: 1 error; nothing was changed\n`,
  });
  expect(await cli(["diff", "--data-dir", dir])).toEqual({ code: 1, stdout: "", stderr: "inlet: diff needs the config file: inlet diff -f FILE\n" });
  expect(await cli(["apply", "--data-dir", dir])).toEqual({ code: 2, stdout: "", stderr: "inlet: apply needs the config file: inlet apply -f FILE\n" });
}, 60_000);

test("a pinned token another trigger keeps: exit 1 naming the trigger and /token, nothing changed", async () => {
  const dir = freshDir();
  const made = JSON.parse((await cli(["triggers", "create", "--name", "by-hand", "--data-dir", dir])).stdout);
  const file = writeFile("thief.yaml", `triggers:\n  - name: new-one\n  - name: thief\n    token: ${made.token}\n`);
  const refused = await cli(["apply", "-f", file, "--data-dir", dir]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toStartWith('thief: /token: is the token of the trigger "by-hand", which keeps it: pin another one\n');
  expect((await list(dir)).map((t) => t.name)).toEqual(["by-hand"]);
}, 60_000);

test("export writes every trigger with placeholders, never a value; applied with those variables on a fresh data dir it reproduces URLs and secrets", async () => {
  const dir = freshDir();
  const config = writeFile("source.yaml", CONFIG);
  expect((await cli(["apply", "-f", config, "--data-dir", dir], ENV)).code).toBe(0);
  const original = await byName(dir);
  const secrets = {
    orders: await reveal(dir, original.orders.id),
    deploys: await reveal(dir, original.deploys.id),
    github: await reveal(dir, original.github.id),
  };

  const yaml = await cli(["export", "--data-dir", dir]);
  expect(yaml.code).toBe(0);
  expect(yaml.stdout).toContain('token: "${INLET_ORDERS_TOKEN}"');
  expect(yaml.stdout).toContain('secret: "${INLET_DEPLOYS_SECRET}"');
  expect(yaml.stdout).toContain('appSecret: "${INLET_GITHUB_APP_SECRET}"');
  const json = join(root, `export-${n++}.json`);
  const written = await cli(["export", "-o", json, "--data-dir", dir]);
  expect(written).toEqual({ code: 0, stdout: `exported 3 triggers to ${json} (tokens and secrets as \${INLET_…} placeholders)\n`, stderr: "" });
  const text = readFileSync(json, "utf8");
  expect(JSON.parse(text).triggers.map((t: any) => t.name)).toEqual(["orders", "github", "deploys"]);
  for (const value of [ORDERS_TOKEN, ORDERS_SECRET, GITHUB_SECRET, original.deploys.token, secrets.deploys!, secrets.github!]) {
    expect(yaml.stdout).not.toContain(value);
    expect(text).not.toContain(value);
  }

  const variables = {
    INLET_ORDERS_TOKEN: original.orders.token,
    INLET_ORDERS_SECRET: secrets.orders!,
    INLET_GITHUB_TOKEN: original.github.token,
    INLET_GITHUB_SECRET: secrets.github!,
    INLET_GITHUB_APP_SECRET: GITHUB_SECRET,
    INLET_DEPLOYS_TOKEN: original.deploys.token,
    INLET_DEPLOYS_SECRET: secrets.deploys!,
  };
  const elsewhere = freshDir();
  expect(await cli(["apply", "-f", json, "--data-dir", elsewhere], variables)).toEqual({
    code: 0,
    stdout: "+ create orders\n+ create github\n+ create deploys\n",
    stderr: "",
  });
  const copy = await byName(elsewhere);
  for (const name of ["orders", "github", "deploys"]) {
    expect({ name, token: copy[name].token, secret: await reveal(elsewhere, copy[name].id) }).toEqual({
      name,
      token: original[name].token,
      secret: secrets[name as keyof typeof secrets],
    });
    const { id, url, curl, createdAt, updatedAt, ...settings } = copy[name];
    const { id: _, url: __, curl: ___, createdAt: ____, updatedAt: _____, ...was } = original[name];
    expect(settings).toEqual(was);
  }
  // The original's export, applied back to it, changes nothing.
  expect(await cli(["diff", "-f", json, "--data-dir", dir], variables)).toEqual({
    code: 0,
    stdout: "= unchanged orders\n= unchanged github\n= unchanged deploys\n",
    stderr: "",
  });
  expect(await cli(["export", "-o", join(root, "x.txt"), "--data-dir", dir])).toEqual({
    code: 2,
    stdout: "",
    stderr: `inlet: -o ${join(root, "x.txt")}: the format is told by the extension: .yaml, .yml or .json\n`,
  });
}, 60_000);

test("a trigger managed by the config is not deleted or rotated by the CLI's triggers commands either", async () => {
  const dir = freshDir();
  const config = writeFile("managed.yaml", "triggers:\n  - name: orders\n    auth: { type: bearer }\n");
  expect((await cli(["apply", "-f", config, "--data-dir", dir])).code).toBe(0);
  const [orders] = await list(dir);
  expect(await cli(["triggers", "delete", orders.id, "--data-dir", dir])).toEqual({ code: 1, stdout: "", stderr: "inlet: managed by config file\n" });
  expect(await cli(["triggers", "rotate", orders.id, "--data-dir", dir])).toEqual({ code: 1, stdout: "", stderr: "inlet: managed by config file\n" });
  expect((await list(dir)).map((t) => t.name)).toEqual(["orders"]);
}, 60_000);
