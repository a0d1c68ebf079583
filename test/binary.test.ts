import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, ROOT, spawnServer } from "./support/process.ts";
import { BUILTIN_PLUGINS } from "../plugins/builtin.ts";

// `npm run build` compiles dist/inlet; here the same script builds into a scratch folder, and the
// binary is copied alone into an empty folder to prove it needs nothing beside it.
const work = mkdtempSync(join(tmpdir(), "inlet-bin-"));
const empty = join(work, "empty");
let binary: string;

beforeAll(async () => {
  const built = join(work, "inlet");
  const proc = Bun.spawn([BUN, "run", "scripts/build.ts", built], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`build failed: ${await new Response(proc.stderr).text()}`);
  Bun.spawnSync(["mkdir", "-p", empty]);
  binary = join(empty, "inlet");
  copyFileSync(built, binary);
  Bun.spawnSync(["chmod", "+x", binary]);
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

test("the build writes the binary alone: its source map is inside it, not beside it", () => {
  expect(readdirSync(work).sort()).toEqual(["empty", "inlet"]);
});

test("dist/inlet runs alone in an empty folder: serve, API, webhook, graceful stop", async () => {
  expect(readdirSync(empty)).toEqual(["inlet"]);
  const version = Bun.spawnSync([binary, "version"], { cwd: empty });
  expect(version.stdout.toString()).toMatch(/^inlet \d/);
  const server = await spawnServer([binary], [], { cwd: empty, env: { INLET_ADMIN_TOKEN: "binary-admin-token-0123456789" } });
  try {
    const headers = { Authorization: "Bearer binary-admin-token-0123456789", "Content-Type": "application/json" };
    const created = await (
      await fetch(`${server.url}/api/triggers`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "bin", auth: { type: "hmac-sha512", encoding: "base64" } }),
      })
    ).json();
    const curl = Bun.spawn(["bash", "-c", `${created.curl} -w '\\n%{http_code}'`], { stdout: "pipe" });
    expect((await new Response(curl.stdout).text()).trim().split("\n").at(-1)).toBe("200");
    // The built-in plugins and the panel are inside the binary (docs/plugins.md#loading-plugins).
    const plugins = (await (await fetch(`${server.url}/api/plugins`, { headers })).json()) as Array<{ id: string }>;
    expect(plugins.map((p) => p.id).sort()).toEqual(BUILTIN_PLUGINS.map((p) => p.id).sort());
    const panel = await fetch(`${server.url}/`);
    expect(panel.status).toBe(200);
    expect(panel.headers.get("content-type")).toStartWith("text/html");
    expect(await panel.text()).toContain("<script");
    // Checks run in the sandbox workers embedded in the binary; schemas and XML too.
    const checked = await (
      await fetch(`${server.url}/api/triggers`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          name: "checked",
          filter: { enabled: true, expression: '$.order.type == "paid"' },
          redaction: { enabled: true, patterns: ["^email$"] },
          schema: { enabled: true, document: { type: "object", required: ["order"] } },
        }),
      })
    ).json();
    const xml = await fetch(checked.url, {
      method: "POST",
      body: "<order><type>paid</type><email>a@b.c</email></order>",
      headers: { "Content-Type": "application/xml" },
    });
    expect(xml.status).toBe(200);
    const [run] = await (await fetch(`${server.url}/api/runs?triggerId=${checked.id}&include=trigger`, { headers })).json();
    expect(run.trigger.body).toEqual({ order: { type: "paid", email: "[REDACTED]" } });
    expect((await fetch(checked.url, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } })).status).toBe(422);
    // A large XML body is parsed on the XML parser thread, also embedded in the binary.
    const orders = Array.from({ length: 800 }, (_, i) => `<item><sku>s${i}</sku><email>x${i}@b.c</email></item>`).join("");
    const large = await fetch(checked.url, {
      method: "POST",
      body: `<order><type>paid</type>${orders}</order>`,
      headers: { "Content-Type": "application/xml" },
    });
    expect(large.status).toBe(200);
    const [largeRun] = await (await fetch(`${server.url}/api/runs?triggerId=${checked.id}&include=trigger&limit=1`, { headers })).json();
    expect(largeRun.trigger.body.order.item).toHaveLength(800);
    expect(largeRun.trigger.body.order.item[799]).toEqual({ sku: "s799", email: "[REDACTED]" });
    // JWTs are verified with jose inside the binary.
    const jwtTrigger = await (
      await fetch(`${server.url}/api/triggers`, { method: "POST", headers, body: JSON.stringify({ name: "jwt", auth: { type: "jwt" } }) })
    ).json();
    const key = (await (await fetch(`${server.url}/api/triggers/${jwtTrigger.id}/secret`, { headers })).json()).secret;
    const { SignJWT } = await import("jose");
    const token = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setExpirationTime("1m").sign(new TextEncoder().encode(key));
    expect((await fetch(jwtTrigger.url, { method: "POST", body: "{}", headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    // The binary starts Bun's parser with the raised header limit: inlet answers 431 itself.
    const big = await fetch(`${server.url}/healthz`, { headers: { "X-Big": "a".repeat(70_000) } });
    expect(big.status).toBe(431);
    expect((await big.json()).error).toBe("request header fields too large");
  } finally {
    server.proc.kill("SIGTERM");
    expect(await server.proc.exited).toBe(0);
  }
  // The default data dir is ./inlet-data, with the key file readable by the owner only.
  expect(existsSync(join(empty, "inlet-data", "inlet.db"))).toBe(true);
  expect(statSync(join(empty, "inlet-data", "secret.key")).mode & 0o777).toBe(0o600);
}, 60_000);

test("dist/inlet scaffolds a plugin, loads it from --plugins-dir and signs a request for it", async () => {
  const dir = join(empty, "my-plugins");
  const scaffold = Bun.spawnSync([binary, "plugins", "new", "acme", "--dir", dir], { cwd: empty });
  expect(scaffold.exitCode).toBe(0);
  const env = { INLET_ADMIN_TOKEN: "binary-admin-token-0123456789" };
  const listed = Bun.spawnSync([binary, "plugins", "list", "--plugins-dir", dir, "--data-dir", join(empty, "d2")], {
    cwd: empty,
    env: { ...process.env, ...env },
  });
  expect(JSON.parse(listed.stdout.toString()).map((p: any) => p.id)).toContain("acme");
  const server = await spawnServer([binary], ["--plugins-dir", dir, "--data-dir", join(empty, "d2")], { cwd: empty, env });
  try {
    const headers = { Authorization: `Bearer ${env.INLET_ADMIN_TOKEN}`, "Content-Type": "application/json" };
    const created = await (
      await fetch(`${server.url}/api/triggers`, { method: "POST", headers, body: JSON.stringify({ name: "acme", app: "acme", appSecret: "acme-secret" }) })
    ).json();
    Bun.write(join(empty, "body.json"), '{"type":"thing.created"}');
    const sign = Bun.spawn(
      [binary, "sign", created.id, "--body", join(empty, "body.json"), "--data-dir", join(empty, "d2"), "--plugins-dir", dir, "--base-url", server.url],
      { cwd: empty, stdout: "pipe" },
    );
    const curl = (await new Response(sign.stdout).text()).trim();
    expect(curl).toContain("x-acme-signature");
    const sent = Bun.spawn(["bash", "-c", `${curl} -o /dev/null -w '%{http_code}'`], { stdout: "pipe" });
    expect(await new Response(sent.stdout).text()).toBe("200");
  } finally {
    server.proc.kill("SIGTERM");
    expect(await server.proc.exited).toBe(0);
  }
}, 60_000);
