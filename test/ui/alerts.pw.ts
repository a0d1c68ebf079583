import { expect, test } from "@playwright/test";
import { api, openNewTrigger, saveNew, signIn, uniqueName } from "./support.ts";

test("the Alerts region edits a trigger's rules; a Firing badge shows on the list and the trigger while one fires", async ({ page }) => {
  const quiet = await api("POST", "/api/triggers", { name: uniqueName("quiet"), alerts: [{ kind: "silence", seconds: 1 }] });
  // A rule that is evaluated and fine: no badge ("while one of its rules fires").
  const calm = await api("POST", "/api/triggers", { name: uniqueName("calm"), alerts: [{ kind: "silence", seconds: 3600 }] });
  const stateOf = async (id: string) => (await api("GET", "/api/alerts")).find((a: { triggerId: string }) => a.triggerId === id)?.state;
  await expect.poll(() => stateOf(quiet.id), { timeout: 15_000 }).toBe("firing");
  await expect.poll(() => stateOf(calm.id), { timeout: 15_000 }).toBe("ok");

  await signIn(page);
  const row = page.getByRole("row").filter({ hasText: quiet.name });
  await expect(row.getByText("Firing", { exact: true })).toBeVisible();
  // The list is drawn in one pass, the badges with it.
  await expect(page.getByRole("row").filter({ hasText: calm.name })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: calm.name }).getByText("Firing", { exact: true })).toHaveCount(0);
  await row.getByRole("link", { name: quiet.name }).click();
  await expect(page.getByRole("heading", { level: 1 }).getByText("Firing", { exact: true })).toBeVisible();
  const alerts = page.getByRole("group", { name: "Alerts" });
  await expect(alerts.getByRole("group", { name: "Alert rule 1" }).getByLabel("Kind")).toHaveValue("silence");
  await expect(alerts.getByRole("group", { name: "Alert rule 1" }).getByLabel("Seconds")).toHaveValue("1");

  // A new trigger with two rules, one of them checked in the browser first.
  await page.goto("/");
  await openNewTrigger(page);
  const name = uniqueName("alerting");
  await page.getByLabel("Name", { exact: true }).fill(name);
  const region = page.getByRole("group", { name: "Alerts" });
  await region.getByRole("button", { name: "Add alert rule" }).click();
  await region.getByRole("button", { name: "Add alert rule" }).click();
  const second = region.getByRole("group", { name: "Alert rule 2" });
  await second.getByLabel("Kind").selectOption("auth_failures");
  await second.getByLabel("Count").fill("0");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(second.getByLabel("Count")).toHaveAccessibleErrorMessage("Enter a whole number from 1 to 1000000.");
  await second.getByLabel("Count").fill("10");
  await saveNew(page);
  const saved = (await api("GET", "/api/triggers")).find((t: { name: string }) => t.name === name);
  expect(saved.alerts).toEqual([
    { kind: "silence", seconds: 3600 },
    { kind: "auth_failures", count: 10, seconds: 3600 },
  ]);
});
