import { expect, test } from "@playwright/test";
import { api, openNewTrigger, postWebhook, saveNew, signIn, uniqueName } from "./support.ts";

test("the Allowed sources region: one address or range per line, bad lines named, others refused with 403", async ({ page }) => {
  await signIn(page);
  await openNewTrigger(page);
  const name = uniqueName("sources");
  await page.getByLabel("Name", { exact: true }).fill(name);
  const field = page.getByRole("group", { name: "Allowed sources" }).getByLabel("Allowed sources");
  await field.fill("192.0.2.0/24\nnot-an-address");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(field).toHaveAccessibleErrorMessage(/^Line 2: "not-an-address" is not an IPv4 or IPv6 address/);
  await field.fill("192.0.2.0/24");
  await saveNew(page);
  const url = await page.getByLabel("URL", { exact: true }).inputValue();
  expect((await postWebhook(url, "{}")).status).toBe(403);
  const saved = (await api("GET", "/api/triggers")).find((t: { name: string }) => t.name === name);
  expect(saved.sources).toEqual({ allow: ["192.0.2.0/24"] });
});
