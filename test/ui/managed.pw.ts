import { expect, test } from "@playwright/test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { api, serverDataDir, signIn, uniqueName } from "./support.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** `inlet apply -f FILE` on the data dir the panel's server uses; resolves once the server has loaded the triggers. */
async function applyConfig(yaml: string, names: string[]): Promise<any[]> {
  const dir = mkdtempSync(join(tmpdir(), "inlet-ui-config-"));
  try {
    const file = join(dir, "inlet.yaml");
    writeFileSync(file, yaml);
    const run = spawnSync(join(ROOT, "node_modules", ".bin", "bun"), ["run", "src/main.ts", "apply", "-f", file, "--data-dir", serverDataDir()], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  let found: any[] = [];
  await expect.poll(async () => ((found = (await api("GET", "/api/triggers")).filter((t: any) => names.includes(t.name))), found.length)).toBe(names.length);
  return names.map((name) => found.find((t) => t.name === name));
}

test("a trigger managed by a config file shows it and its fields read-only, without Save; Reveal and Arm still work", async ({ page }) => {
  const names = [uniqueName("managed"), uniqueName("managed-asana")];
  const [hooks, asana] = await applyConfig(`triggers:\n  - name: ${names[0]}\n    auth: { type: bearer }\n  - name: ${names[1]}\n    app: asana\n`, names);
  const { secret } = await api("GET", `/api/triggers/${hooks.id}/secret`);
  await signIn(page);

  await page.goto(`/#/triggers/${encodeURIComponent(hooks.id)}/settings`);
  await expect(page.getByRole("heading", { level: 1, name: hooks.name })).toBeVisible();
  await expect(page.getByText("Managed by config file", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).not.toBeEditable();
  await expect(page.getByLabel("Authentication Type")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Rotate secret" })).toHaveCount(0);
  await page.getByRole("button", { name: "Reveal" }).click();
  await expect(page.getByLabel("Secret", { exact: true })).toHaveValue(secret);

  await page.goto(`/#/triggers/${encodeURIComponent(asana.id)}/settings`);
  await expect(page.getByRole("heading", { level: 1, name: asana.name })).toBeVisible();
  await expect(page.getByText("Managed by config file", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Arm", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Armed until / })).toBeVisible();
  expect((await api("GET", `/api/triggers/${asana.id}`)).name).toBe(asana.name);
});

test("a trigger made through the API is not marked managed and keeps Save", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("by-hand") });
  await signIn(page);
  await page.goto(`/#/triggers/${encodeURIComponent(t.id)}/settings`);
  await expect(page.getByRole("button", { name: "Save" })).toBeVisible();
  await expect(page.getByText("Managed by config file")).toHaveCount(0);
  await expect(page.getByLabel("Name", { exact: true })).toBeEditable();
});

test("a managed trigger's destinations are read-only, while Pause, Resume and Test transform still work", async ({ page }) => {
  const name = uniqueName("managed-dests");
  const yaml = [
    "triggers:",
    `  - name: ${name}`,
    "    destinations:",
    "      - name: crm",
    "        workflow: { kind: script, source: 'export default () => ({ status: 200 })' }",
    "        transform: { source: 'export default ($trigger) => ({ body: { seen: $trigger.body.type } })' }",
    "      - name: audit",
    "        workflow: { kind: none }",
    "",
  ].join("\n");
  const [t] = await applyConfig(yaml, [name]);
  await signIn(page);
  await page.goto(`/#/triggers/${encodeURIComponent(t.id)}/settings`);
  await expect(page.getByText("Managed by config file", { exact: true })).toBeVisible();
  const crm = page.getByRole("group", { name: "crm", exact: true });
  await expect(crm.getByLabel("Destination name")).not.toBeEditable();
  await expect(crm.getByRole("button", { name: "Remove destination" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Add destination" })).toBeDisabled();

  await crm.getByRole("button", { name: "Test transform" }).click();
  await expect(crm.getByLabel("Returned body and headers")).toContainText('"seen": "sample.created"');
  await crm.getByRole("button", { name: "Pause", exact: true }).click();
  await expect(crm.getByText("Paused", { exact: true })).toBeVisible();
  await crm.getByRole("button", { name: "Resume" }).click();
  await expect(crm.getByText("Paused", { exact: true })).toHaveCount(0);
  expect((await api("GET", `/api/triggers/${t.id}/destinations`)).map((d: { state: string }) => d.state)).toEqual(["ok", "ok"]);
});
