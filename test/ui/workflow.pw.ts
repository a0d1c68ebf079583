import { expect, test } from "@playwright/test";
import { api, openNewTrigger, postWebhook, saveNew, signIn, startNewTrigger, triggerNamed, uniqueName } from "./support.ts";

test("the Workflow region sets what a run does and how the caller is answered", async ({ page }) => {
  await signIn(page);
  await openNewTrigger(page);
  const name = uniqueName("workflow");
  await page.getByLabel("Name", { exact: true }).fill(name);
  const region = page.getByRole("group", { name: "Workflow" });
  await expect(region.getByLabel("Kind").getByRole("option")).toHaveText(["none", "http", "command", "script"]);
  await expect(region.getByLabel("Response mode").getByRole("option")).toHaveText(["Immediate", "Workflow"]);
  // Workflow response mode needs a workflow that answers: not offered for kind none.
  await expect(region.getByLabel("Response mode").getByRole("option", { name: "Workflow" })).toBeDisabled();

  await region.getByLabel("Kind").selectOption("script");
  await region.getByLabel("Script").fill("export default ($trigger) => ({ status: 202, body: { seen: $trigger.body.n } })");
  await region.getByLabel("Response mode").selectOption("workflow");
  await region.getByLabel("Response timeout (ms)").fill("5000");
  await saveNew(page);

  const url = await page.getByLabel("URL", { exact: true }).inputValue();
  const answered = await postWebhook(url, JSON.stringify({ n: 7 }));
  expect(answered.status).toBe(202);
  expect(await answered.json()).toEqual({ seen: 7 });

  const saved = (await api("GET", "/api/triggers")).find((t: { name: string }) => t.name === name);
  expect(saved.workflow).toEqual({ kind: "script", source: "export default ($trigger) => ({ status: 202, body: { seen: $trigger.body.n } })" });
  expect(saved.response).toEqual({ mode: "workflow", timeoutMs: 5000 });

  // Reopened, the region shows what was saved.
  await page.reload();
  await expect(page.getByRole("group", { name: "Workflow" }).getByLabel("Kind")).toHaveValue("script");
  await expect(page.getByRole("group", { name: "Workflow" }).getByLabel("Response mode")).toHaveValue("workflow");
});

test("workflow fields are checked in the browser, each message tied to its field", async ({ page }) => {
  await signIn(page);
  await openNewTrigger(page);
  await page.getByLabel("Name", { exact: true }).fill(uniqueName("wf-rules"));
  const region = page.getByRole("group", { name: "Workflow" });
  await region.getByLabel("Kind").selectOption("http");
  await region.getByLabel("Target URL").fill("ftp://nope");
  await region.getByLabel("Request headers").fill("X-Team: ops\nbroken line");
  await region.getByLabel("Max attempts").fill("99");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(region.getByLabel("Target URL")).toHaveAccessibleErrorMessage(/http:\/\/ or https:\/\//);
  await expect(region.getByLabel("Request headers")).toHaveAccessibleErrorMessage("Line 2: write Name: value.");
  await expect(region.getByLabel("Max attempts")).toHaveAccessibleErrorMessage("Enter a whole number from 1 to 20.");

  await region.getByLabel("Kind").selectOption("command");
  await expect(region.getByLabel("Target URL")).toHaveCount(0);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(region.getByLabel("Command")).toHaveAccessibleErrorMessage(/program to run/);
});

test("the Ordering key: set in the Workflow region, checked, saved, shown again on reload, and cleared", async ({ page }) => {
  const name = await startNewTrigger(page, "ordering");
  const region = page.getByRole("group", { name: "Workflow" });
  const key = region.getByLabel("Ordering key");
  // Kind none runs nothing, so there is nothing to order.
  await expect(key).toHaveCount(0);
  await region.getByLabel("Kind").selectOption("script");
  await expect(key).toBeVisible();
  await expect(key).toHaveAccessibleDescription(/JSONPath query on the \(redacted\) body/);

  const save = page.getByRole("button", { name: "Save" });
  await key.fill("customer.id");
  await save.click();
  await expect(key).toHaveAccessibleErrorMessage("A JSONPath query starts with $, for example $.customer.id.");
  await expect(key).toBeFocused();
  // What only the server's RFC 9535 parser catches lands on the field too, saying where.
  await key.fill("$.customer[");
  await save.click();
  await expect(key).toHaveAccessibleErrorMessage(/found end of input at position 11/);
  await expect(page).toHaveURL(/#\/new/);

  await key.fill("$.customer.id");
  await saveNew(page);
  expect((await triggerNamed(name)).workflow).toMatchObject({ kind: "script", orderingKey: "$.customer.id" });
  await page.reload();
  const reopened = page.getByRole("group", { name: "Workflow" }).getByLabel("Ordering key");
  await expect(reopened).toHaveValue("$.customer.id");

  // Emptied and saved, the trigger's runs are no longer ordered.
  await reopened.fill("");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  expect((await triggerNamed(name)).workflow.orderingKey).toBeUndefined();
  await page.reload();
  await expect(page.getByRole("group", { name: "Workflow" }).getByLabel("Ordering key")).toHaveValue("");
});
