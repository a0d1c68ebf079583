import { expect, test } from "@playwright/test";
import { api, openNewTrigger, postWebhook, saveNew, signIn, uniqueName } from "./support.ts";

test("the Schema region: a switch, the JSON Schema checked as you type and by the server, bodies refused with 422", async ({ page }) => {
  await signIn(page);
  await openNewTrigger(page);
  const name = uniqueName("schema");
  await page.getByLabel("Name", { exact: true }).fill(name);
  const region = page.getByRole("group", { name: "Schema" });
  await region.getByRole("switch", { name: "Schema validation" }).check();
  const document = region.getByLabel("JSON Schema");
  await document.fill("{ not json");
  await expect(document).toHaveAccessibleErrorMessage(/Not valid JSON/);

  // The server's check lands on the field, saying where in the document.
  await document.fill(JSON.stringify({ type: "object", properties: { id: { type: "string", pattern: "(" } } }));
  await page.getByRole("button", { name: "Save" }).click();
  await expect(document).toHaveAccessibleErrorMessage(/\/properties\/id\/pattern: is not a valid regular expression/);

  await document.fill(JSON.stringify({ type: "object", required: ["id"] }));
  await region.getByLabel("Body size limit (bytes)").fill("2048");
  await saveNew(page);
  const url = await page.getByLabel("URL", { exact: true }).inputValue();
  const refused = await postWebhook(url, JSON.stringify({ other: 1 }));
  expect(refused.status).toBe(422);
  expect((await refused.json()).details).toEqual([{ path: "/id", message: "is required" }]);
  const saved = (await api("GET", "/api/triggers")).find((t: { name: string }) => t.name === name);
  expect(saved.schema).toEqual({ enabled: true, document: { type: "object", required: ["id"] } });
  expect(saved.maxBodyBytes).toBe(2048);
});
