import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, cli, ROOT, spawnServer } from "./support/process.ts";

const dataDir = mkdtempSync(join(tmpdir(), "inlet-cli-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const flags = ["--data-dir", dataDir];

test("version and help", async () => {
  const v = await cli(["version"]);
  expect(v.code).toBe(0);
  expect(v.stdout).toMatch(/^inlet \d+\.\d+\.\d+/);
  const h = await cli(["help"]);
  expect(h.code).toBe(0);
  for (const word of ["serve", "triggers list", "runs list", "sign", "--data-dir", "INLET_DATABASE_URL", "INLET_ADMIN_TOKEN"]) expect(h.stdout).toContain(word);
});

test("a command group alone, or any command with --help, prints its usage", async () => {
  const alone = await cli(["triggers"]);
  expect(alone.code).toBe(2);
  expect(alone.stdout).toContain("inlet triggers list");
  // Not run, so a failure: its one line on stderr, like every other.
  expect(alone.stderr).toBe("inlet: 'triggers' needs a command (its usage is above)\n");
  const nothing = await cli([]);
  expect(nothing.code).toBe(2);
  expect(nothing.stdout).toContain("inlet triggers list");
  expect(nothing.stderr).toBe("inlet: no command given (the commands are above)\n");
  const help = await cli(["serve", "--help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain("inlet serve [flags]");
  expect((await cli(["runs", "-h"])).stdout).toContain("inlet runs replay ID");
});

test("errors are one line on stderr with a non-zero exit", async () => {
  for (const args of [
    ["bogus"],
    ["triggers", "show", "nope", ...flags],
    ["serve", "--port", "http"],
    ["serve", "--colour", "red"],
    ["triggers", "frobnicate", ...flags],
  ]) {
    const r = await cli(args);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toStartWith("inlet: ");
  }
});

test("an unknown command, flag or id, a missing or extra argument: nothing on stdout, exit 2, the reason on one stderr line", async () => {
  const refusals: Array<[string[], string]> = [
    [["triggers", "show", ...flags], "inlet: triggers show needs a trigger id"],
    [["triggers", "delete", ...flags], "inlet: triggers delete needs a trigger id"],
    [["triggers", "delete", "nope", ...flags], "inlet: no trigger with id nope"],
    [["runs", "show", ...flags], "inlet: runs show needs a run id"],
    [["runs", "show", "nope", ...flags], "inlet: no run with id nope"],
    // A mistyped trigger id would otherwise list nothing, like a trigger without runs.
    [["runs", "list", "--trigger", "nope", ...flags], "inlet: no trigger with id nope"],
    [["sign", ...flags], "inlet: sign needs a trigger id"],
    [["sign", "nope", ...flags], "inlet: sign needs --body FILE"],
    [["sign", "nope", "--body", "-", ...flags], "inlet: no trigger with id nope"],
    [["plugins", "frobnicate", ...flags], "inlet: unknown command 'plugins frobnicate'"],
    // The command is looked up before its flags are read: there are none to read for no command.
    [["triggers", "frobnicate", "--bogus", ...flags], "inlet: unknown command 'triggers frobnicate' (list, create, show, delete, rotate, arm, replay)"],
    [["triggers", "list", "--bogus", ...flags], "inlet: unknown flag --bogus"],
    [["runs", "list", ...flags, "--limit"], "inlet: --limit needs a value"],
    [["serve", "--port"], "inlet: --port needs a value"],
    [["serve", "8080"], "inlet: unexpected argument 8080"],
    // Extra words are refused, not ignored: `triggers list orders` is not a filter.
    [["triggers", "list", "orders", ...flags], "inlet: unexpected argument orders"],
    [["triggers", "show", "a", "b", ...flags], "inlet: unexpected argument b"],
    [["runs", "list", "failed", ...flags], "inlet: unexpected argument failed"],
    [["plugins", "list", "github", ...flags], "inlet: unexpected argument github"],
    [["triggers", "create", "--name", "x", "--input", join(dataDir, "missing.json"), ...flags], `inlet: cannot read ${join(dataDir, "missing.json")}`],
    [["version", "--json"], "inlet: unexpected argument --json"],
    [["help", "--all"], "inlet: unknown flag --all"],
    [["help", "bogus"], "inlet: unknown command 'bogus'"],
    [["triggers list", ...flags], "inlet: unknown command 'triggers list'"],
  ];
  for (const [args, reason] of refusals) {
    const r = await cli(args);
    expect({ args, code: r.code, stdout: r.stdout, lines: r.stderr.trim().split("\n").length }).toEqual({ args, code: 2, stdout: "", lines: 1 });
    expect(r.stderr).toStartWith(reason);
  }
});

test("help COMMAND prints that command's usage, as COMMAND --help does", async () => {
  for (const command of ["triggers", "runs", "sign", "serve"]) {
    const r = await cli(["help", command]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe((await cli([command, "--help"])).stdout);
    expect(r.stdout).toContain(`inlet ${command}`);
  }
});

test("triggers create, list, show --reveal, sign, runs, delete — against a running server's data dir", async () => {
  const created = await cli(["triggers", "create", "--name", "deploys", "--auth", "hmac-sha256", ...flags]);
  expect(created.code).toBe(0);
  const trigger = JSON.parse(created.stdout);
  expect(trigger).toMatchObject({ name: "deploys", auth: { type: "hmac-sha256", hasSecret: true } });
  const list = JSON.parse((await cli(["triggers", "list", "--json", ...flags])).stdout);
  expect(list.map((t: any) => t.id)).toContain(trigger.id);
  const shown = JSON.parse((await cli(["triggers", "show", trigger.id, "--reveal", ...flags])).stdout);
  expect(shown.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

  const server = await spawnServer([BUN, "run", join(ROOT, "src/main.ts")], [...flags, "--log-requests", "false"]);
  try {
    const bodyFile = join(dataDir, "body.json");
    writeFileSync(bodyFile, '{"ref":"refs/heads/main",  "n": 1}');
    const signed = await cli(["sign", trigger.id, "--body", bodyFile, "--base-url", server.url, ...flags]);
    expect(signed.code).toBe(0);
    expect(signed.stdout).toContain("X-Signature: sha256=");
    const curl = Bun.spawn(["bash", "-c", `${signed.stdout.trim()} -o /dev/null -w '%{http_code}'`], { stdout: "pipe" });
    expect(await new Response(curl.stdout).text()).toBe("200");

    // A trigger created by the CLI while the server runs is served within a second.
    const late = JSON.parse((await cli(["triggers", "create", "--name", "late", ...flags])).stdout);
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      status = (await fetch(`${server.url}/webhooks/${late.token}`, { method: "POST", body: "{}" })).status;
      if (status !== 200) await Bun.sleep(50);
    }
    expect(status).toBe(200);
  } finally {
    server.proc.kill("SIGTERM");
    expect(await server.proc.exited).toBe(0);
  }

  const runs = JSON.parse((await cli(["runs", "list", "--trigger", trigger.id, "--include-trigger", ...flags])).stdout);
  expect(runs).toHaveLength(1);
  expect(runs[0].trigger.body).toEqual({ ref: "refs/heads/main", n: 1 });
  const run = JSON.parse((await cli(["runs", "show", runs[0].id, ...flags])).stdout);
  expect(run.id).toBe(runs[0].id);
  expect((await cli(["runs", "list", "--limit", "0", ...flags])).code).not.toBe(0);

  const deleted = await cli(["triggers", "delete", trigger.id, ...flags]);
  expect(deleted.code).toBe(0);
  expect((await cli(["triggers", "show", trigger.id, ...flags])).code).not.toBe(0);
});

test("serve prints a generated admin token once, then only its hash is kept", async () => {
  const dir = mkdtempSync(join(tmpdir(), "inlet-admin-"));
  try {
    const first = await spawnServer([BUN, "run", join(ROOT, "src/main.ts")], ["--data-dir", dir], { env: { INLET_ADMIN_TOKEN: "" } });
    expect(first.adminToken).toMatch(/^inlet_/);
    const ok = await fetch(`${first.url}/api/triggers`, { headers: { Authorization: `Bearer ${first.adminToken}` } });
    expect(ok.status).toBe(200);
    first.proc.kill("SIGTERM");
    await first.proc.exited;
    const db = Bun.file(join(dir, "inlet.db"));
    expect(new TextDecoder().decode(new Uint8Array(await db.arrayBuffer())).includes(first.adminToken!)).toBe(false);
    const second = await spawnServer([BUN, "run", join(ROOT, "src/main.ts")], ["--data-dir", dir], { env: { INLET_ADMIN_TOKEN: "" } });
    expect(second.adminToken).toBeNull();
    expect((await fetch(`${second.url}/api/triggers`, { headers: { Authorization: `Bearer ${first.adminToken}` } })).status).toBe(200);
    second.proc.kill("SIGINT");
    expect(await second.proc.exited).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a process with another secret key than the store's refuses to start, on one line, before touching a secret", async () => {
  const dir = mkdtempSync(join(tmpdir(), "inlet-cli-key-"));
  try {
    const keyA = Buffer.alloc(32, 1).toString("base64");
    const keyB = Buffer.alloc(32, 2).toString("base64");
    const first = await cli(["triggers", "create", "--name", "sealed", "--auth", "bearer", "--data-dir", dir], { INLET_SECRET_KEY: keyA });
    expect(first.code).toBe(0);
    const other = await cli(["triggers", "list", "--data-dir", dir], { INLET_SECRET_KEY: keyB });
    expect(other.code).toBe(2);
    expect(other.stderr.trim().split("\n")).toHaveLength(1);
    expect(other.stderr).toContain("the secret key from INLET_SECRET_KEY is not the key this data dir's secrets were sealed with");
    // Without INLET_SECRET_KEY the data dir's own key file is a third key: refused the same way, naming the file.
    const fileKey = await cli(["triggers", "list", "--data-dir", dir]);
    expect(fileKey.code).toBe(2);
    expect(fileKey.stderr).toContain(`${join(dir, "secret.key")} (no INLET_SECRET_KEY set)`);
    expect((await cli(["triggers", "list", "--data-dir", dir], { INLET_SECRET_KEY: keyA })).code).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("plugins list lists the plugins without creating a data dir or opening a store", async () => {
  const absent = join(dataDir, "never-created");
  const listed = await cli(["plugins", "list", "--data-dir", absent]);
  expect(listed.code).toBe(0);
  expect((JSON.parse(listed.stdout) as Array<{ id: string }>).map((p) => p.id)).toContain("github");
  expect(existsSync(absent)).toBe(false);
  // Not even a database URL is dialled.
  const withDatabase = await cli(["plugins", "list", "--database-url", "postgres://nobody@127.0.0.1:1/none"]);
  expect(withDatabase.code).toBe(0);
});
