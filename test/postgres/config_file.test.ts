import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropDatabase, newSecretKey, startInstance, stopAll, waitFor } from "../support/instances.ts";
import { freshDatabase, postgresAvailable, sharedPostgres } from "../support/postgres.ts";
import { cli } from "../support/process.ts";

/**
 * Triggers as code on PostgreSQL (README "Triggers as code"): `inlet apply` in one transaction
 * with a running instance picking the change up at once, and several instances watching one file
 * that apply each change once, not once per instance.
 */

const ADMIN = "config-file-admin-token-0123456789";
const SECRET_KEY = newSecretKey();
const root = mkdtempSync(join(tmpdir(), "inlet-pg-config-"));
const databases: string[] = [];

afterAll(async () => {
  await stopAll();
  for (const url of databases) await dropDatabase(url).catch(() => {});
  rmSync(root, { recursive: true, force: true });
});

async function newDatabase(): Promise<string> {
  const url = await freshDatabase((await sharedPostgres())!, "inlet_config");
  databases.push(url);
  return url;
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe.skipIf(!postgresAvailable())("triggers as code on PostgreSQL", () => {
  test("inlet apply on --database-url: one transaction, in force on a running instance at once; again: unchanged; a bad file changes nothing", async () => {
    const url = await newDatabase();
    const instance = await startInstance("apply", { databaseUrl: url, secretKey: SECRET_KEY, adminToken: ADMIN });
    const env = { INLET_SECRET_KEY: SECRET_KEY, DEPLOY_SECRET: "deploy-secret-from-the-env-123" };
    const file = join(root, "apply.yaml");
    writeFileSync(file, 'triggers:\n  - name: orders\n  - name: deploys\n    auth: { type: bearer, secret: "${DEPLOY_SECRET}" }\n');
    expect(await cli(["apply", "-f", file, "--database-url", url], env)).toEqual({ code: 0, stdout: "+ create orders\n+ create deploys\n", stderr: "" });
    const deploys = await waitFor("the instance sees the change", async () =>
      ((await instance.api("GET", "/api/triggers")).body as any[]).find((t) => t.name === "deploys"),
    );
    expect(deploys.managedBy).toBe("config");
    expect((await instance.webhook(deploys.token, "{}", { Authorization: "Bearer deploy-secret-from-the-env-123" })).status).toBe(200);
    expect((await instance.api("PATCH", `/api/triggers/${deploys.id}`, { name: "x" })).body).toEqual({ error: "managed by config file" });

    expect(await cli(["apply", "-f", file, "--database-url", url], env)).toEqual({ code: 0, stdout: "= unchanged orders\n= unchanged deploys\n", stderr: "" });
    writeFileSync(file, "triggers:\n  - name: orders\n    auth: { type: bearer }\n  - name: deploys\n    auth: { type: bearer, secret: short }\n");
    expect((await cli(["apply", "-f", file, "--database-url", url], env)).code).toBe(1);
    expect(await cli(["diff", "-f", join(root, "apply.yaml"), "--database-url", url], env)).toMatchObject({ code: 1 });
    expect(((await instance.api("GET", "/api/triggers")).body as any[]).find((t) => t.name === "orders").auth.type).toBe("none");
  }, 120_000);

  test("two instances watching one file apply it once at start and each change once, without fighting", async () => {
    const url = await newDatabase();
    const folder = mkdtempSync(join(root, "watched-"));
    const file = join(folder, "inlet.yaml");
    writeFileSync(file, "triggers:\n  - name: orders\n    auth: { type: bearer }\n");
    const args = ["--config", file, "--watch"];
    // Started together: both apply the file at start, on one database.
    const [a, b] = await Promise.all(["a", "b"].map((name) => startInstance(name, { databaseUrl: url, secretKey: SECRET_KEY, adminToken: ADMIN, args })));
    const names = async () => ((await a.api("GET", "/api/triggers")).body as any[]).map((t) => t.name).sort();
    expect(await names()).toEqual(["orders"]);
    const logs = () => a.output() + b.output();
    expect(count(logs(), '"plan":["+ create orders"]')).toBe(1);

    writeFileSync(file, "triggers:\n  - name: orders\n    auth: { type: bearer }\n  - name: deploys\n");
    await waitFor(
      "both instances read the change",
      () => count(logs(), '"plan":["= unchanged orders","+ create deploys"]') + count(logs(), "config file read: nothing to change") >= 2,
    );
    expect(count(logs(), '"plan":["= unchanged orders","+ create deploys"]')).toBe(1);
    expect(await names()).toEqual(["deploys", "orders"]);
    // Each instance has every trigger once, the same (ids, tokens, times): nothing was written twice.
    const seen = async (on: typeof a) => ((await on.api("GET", "/api/triggers")).body as any[]).map((t) => [t.name, t.id, t.token, t.updatedAt]);
    expect(await seen(b)).toEqual(await seen(a));

    // Half-written: each instance refuses it and counts it; the triggers stay.
    const reloadErrors = async (on: typeof a) => Number(/^inlet_config_reload_errors_total (\d+)$/m.exec(await (await fetch(`${on.url}/metrics`)).text())?.[1]);
    writeFileSync(file, "triggers:\n  - name: orders\n    auth: { type: bear");
    await waitFor("both refused it", async () => (await reloadErrors(a)) === 1 && (await reloadErrors(b)) === 1);
    expect(await names()).toEqual(["deploys", "orders"]);

    // Replaced by a rename, with prune: deploys is deleted once.
    writeFileSync(join(folder, "inlet.yaml.new"), "triggers:\n  - name: orders\n    auth: { type: bearer }\nprune: true\n");
    renameSync(join(folder, "inlet.yaml.new"), file);
    await waitFor("deploys pruned everywhere", async () => (await names()).length === 1 && ((await b.api("GET", "/api/triggers")).body as any[]).length === 1);
    await waitFor(
      "both instances read it",
      () => count(logs(), '"plan":["= unchanged orders","- delete deploys"]') + count(logs(), "config file read: nothing to change") >= 3,
    );
    expect(count(logs(), '"plan":["= unchanged orders","- delete deploys"]')).toBe(1);
  }, 120_000);
});
