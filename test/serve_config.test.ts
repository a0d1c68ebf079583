import { afterAll, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adminApi, BUN, cli, ROOT, spawnServer, type ServerProcess } from "./support/process.ts";
import { waitFor } from "./support/wait.ts";

/**
 * `inlet serve --config FILE [--watch]` on a SQLite data dir (README "Triggers as code"): the file
 * applied at start (a bad one stops the start, exit 2), and with --watch each change applied —
 * in place or by rename — while a half-written file is refused (logged, counted, the last good
 * configuration kept), a deleted one changes nothing, and one that appears again is applied.
 * Triggers from the file refuse API edits with 409.
 */

const root = mkdtempSync(join(tmpdir(), "inlet-serve-config-"));
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.proc.kill("SIGKILL");
    await server.proc.exited;
  }
  rmSync(root, { recursive: true, force: true });
});

const ADMIN = "serve-config-admin-token-0123456789";
const ORDERS_TOKEN = "orders_pinned_token_0123456789_xyz";
const ORDERS_SECRET = "orders-supplied-secret-4f3e2d1c";
const ENV = { INLET_ADMIN_TOKEN: ADMIN, ORDERS_TOKEN, ORDERS_SECRET };

const configText = (extra = "") => `triggers:
  - name: orders
    token: "\${ORDERS_TOKEN}"
    auth: { type: hmac-sha256, secret: "\${ORDERS_SECRET}" }
${extra}`;

test("serve --config with a file that cannot be applied does not start: every error on stderr, exit 2", async () => {
  const dataDir = mkdtempSync(join(root, "bad-"));
  const bad = join(root, "bad.yaml");
  writeFileSync(
    bad,
    "triggers:\n  - name: orders\n    auth: { type: bearer, secret: short }\n  - name: x\n    filter: { enabled: true, expression: '$.a = 1' }\n",
  );
  const refused = await cli(["serve", "--port", "0", "--data-dir", dataDir, "--config", bad], ENV);
  expect(refused.code).toBe(2);
  expect(refused.stdout).not.toContain("inlet listening");
  const lines = refused.stderr.trim().split("\n");
  expect(lines[0]).toBe("orders: /auth/secret: must be at least 16 characters (it has 5)");
  expect(lines[1]).toStartWith("x: /filter/expression: ");
  expect(lines.at(-1)).toBe(`inlet: ${bad}: the config file was not applied (2 errors): the server did not start`);

  const missing = await cli(["serve", "--port", "0", "--data-dir", dataDir, "--config", join(root, "nowhere.yaml")], ENV);
  expect(missing).toMatchObject({
    code: 2,
    stderr: `${join(root, "nowhere.yaml")}: cannot be read: no such file\ninlet: ${join(root, "nowhere.yaml")}: the config file was not applied (1 error): the server did not start\n`,
  });
  expect(await cli(["serve", "--port", "0", "--data-dir", dataDir, "--watch"], ENV)).toMatchObject({
    code: 2,
    stderr: "inlet: --watch watches the config file: give it with --config FILE (or INLET_CONFIG)\n",
  });
  // Nothing of it was applied.
  expect(JSON.parse((await cli(["triggers", "list", "--json", "--data-dir", dataDir], ENV)).stdout)).toEqual([]);
}, 60_000);

test("serve --config --watch: applied at start, then each change (in place, by rename); a half-written file refused and counted; deleted and back", async () => {
  const dataDir = mkdtempSync(join(root, "watch-"));
  const folder = mkdtempSync(join(root, "conf-"));
  const file = join(folder, "inlet.yaml");
  writeFileSync(file, configText());
  const server = await spawnServer([BUN, "run", join(ROOT, "src/main.ts")], ["--data-dir", dataDir, "--log-requests", "false", "--config", file, "--watch"], {
    env: ENV,
  });
  servers.push(server);
  const api = (method: string, path: string, body?: unknown) => adminApi(server, ADMIN, method, path, body);
  const triggers = async () => Object.fromEntries(((await api("GET", "/api/triggers")).body as any[]).map((t) => [t.name, t]));
  const reloadErrors = async () => Number(/^inlet_config_reload_errors_total (\d+)$/m.exec(await (await fetch(`${server.url}/metrics`)).text())?.[1]);

  // At start, before the server listened: the pinned URL verifies with the supplied secret.
  const orders = (await triggers()).orders;
  expect([orders.token, orders.managedBy]).toEqual([ORDERS_TOKEN, "config"]);
  const body = '{"type":"order.paid"}';
  const signed = await fetch(`${server.url}/webhooks/${ORDERS_TOKEN}`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", "X-Signature": `sha256=${createHmac("sha256", ORDERS_SECRET).update(body).digest("hex")}` },
  });
  expect(signed.status).toBe(200);
  expect(await reloadErrors()).toBe(0);

  // API edits of a managed trigger: 409; reading, revealing, Activity and replay still work.
  for (const [method, path, input] of [
    ["PATCH", `/api/triggers/${orders.id}`, { name: "renamed" }],
    ["DELETE", `/api/triggers/${orders.id}`, undefined],
    ["POST", `/api/triggers/${orders.id}/rotate`, {}],
  ] as const) {
    expect({ method, ...(await api(method, path, input)) }).toEqual({ method, status: 409, body: { error: "managed by config file" } });
  }
  expect((await api("GET", `/api/triggers/${orders.id}/secret`)).body).toEqual({ secret: ORDERS_SECRET });
  const [row] = (await api("GET", `/api/triggers/${orders.id}/activity`)).body;
  expect(row.outcome).toBe("run");
  expect((await api("POST", `/api/runs/${row.runId}/replay`)).status).toBe(201);
  const byHand = await api("POST", "/api/triggers", { name: "by-hand" });
  expect(byHand.body.managedBy).toBeNull();
  expect((await api("PATCH", `/api/triggers/${byHand.body.id}`, { name: "still-mine" })).status).toBe(200);

  // 1. Written in place.
  writeFileSync(file, configText("  - name: deploys\n    auth: { type: bearer }\n"));
  const deploys = await waitFor("deploys created", async () => (await triggers()).deploys);
  expect(deploys.managedBy).toBe("config");

  // 2. Replaced by a rename, as editors and git write.
  const temp = join(folder, ".inlet.yaml.swp");
  writeFileSync(temp, configText("  - name: deploys\n    auth: { type: bearer }\n    filter: { enabled: true, expression: '$.ref == \"main\"' }\n"));
  renameSync(temp, file);
  await waitFor("deploys filtered", async () => (await triggers()).deploys.filter.enabled === true);

  // 3. Half-written: refused, counted, logged; the last good configuration stays.
  const before = await triggers();
  writeFileSync(file, 'triggers:\n  - name: orders\n    auth: { type: hmac-sha256, secret: "${ORDERS_SEC');
  await waitFor("the refusal counted", async () => (await reloadErrors()) === 1);
  await waitFor("the refusal logged", () => server.errors().includes("config file not applied: the last good configuration stays in force"));
  expect(server.errors()).toContain("not valid YAML");
  expect(await triggers()).toEqual(before);

  // 4. Deleted: a warning, nothing deleted.
  rmSync(file);
  await waitFor("the deletion noticed", () => server.errors().includes("config file deleted: nothing changed"));
  expect(await triggers()).toEqual(before);

  // 5. Back again: applied (prune removes what the file no longer names; the API's trigger stays).
  writeFileSync(file, `${configText()}prune: true\n`);
  await waitFor("deploys pruned", async () => !(await triggers()).deploys);
  expect(Object.keys(await triggers()).sort()).toEqual(["orders", "still-mine"]);
  expect(await reloadErrors()).toBe(1);

  // The log never holds a secret or a pinned token.
  await waitFor("the apply logged", () => server.errors().includes('"plan":["= unchanged orders","- delete deploys"]'));
  for (const secret of [ORDERS_SECRET, ORDERS_TOKEN, (await api("GET", `/api/triggers/${deploys.id}/secret`)).body?.secret].filter(Boolean))
    expect(server.errors()).not.toContain(secret);
}, 60_000);
