import { expect, test } from "@playwright/test";
import { postWebhook, saveNew, startNewTrigger, triggerNamed } from "./support.ts";

test("report-only rollout: Mode and Report until for authentication and for allowed sources", async ({ page }) => {
  const name = await startNewTrigger(page, "report-only");
  await page.getByLabel("Authentication Type").selectOption("bearer");
  const auth = page.getByRole("region", { name: "Authentication" });
  const mode = auth.getByLabel("Mode", { exact: true });
  await expect(mode.getByRole("option")).toHaveText(["Enforce", "Report only"]);
  await expect(auth.getByLabel("Report until")).toHaveCount(0);
  await mode.selectOption({ label: "Report only" });
  // A week ahead to start from.
  await expect(auth.getByLabel("Report until")).not.toHaveValue("");
  const sources = page.getByRole("group", { name: "Allowed sources" });
  await sources.getByLabel("Allowed sources").fill("192.0.2.0/24");
  await sources.getByLabel("Mode", { exact: true }).selectOption({ label: "Report only" });
  await saveNew(page);

  const saved = await triggerNamed(name);
  expect(saved.auth).toMatchObject({ type: "bearer", mode: "report", reportUntil: expect.any(String) });
  expect(saved.sources).toMatchObject({ allow: ["192.0.2.0/24"], mode: "report", reportUntil: expect.any(String) });
  const url = await page.getByLabel("URL", { exact: true }).inputValue();
  expect((await postWebhook(url, "{}", { Authorization: "Bearer wrong" })).status).toBe(200);

  await page.reload();
  await expect(page.getByRole("region", { name: "Authentication" }).getByLabel("Mode", { exact: true })).toHaveValue("report");
  await expect(page.getByRole("group", { name: "Allowed sources" }).getByLabel("Mode", { exact: true })).toHaveValue("report");
});
