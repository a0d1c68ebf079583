import { expect, test } from "@playwright/test";
import { openNewTrigger, postWebhook, saveNew, signIn, uniqueName } from "./support.ts";

test("a retried delivery shows as a Deduplicated row in Activity, live, under payload-hash dedup", async ({ page }) => {
  await signIn(page);
  await openNewTrigger(page);
  const name = uniqueName("dedup");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("group", { name: "Deduplication" }).getByLabel("Strategy").selectOption({ label: "Payload Hash" });
  await saveNew(page);
  const url = await page.getByLabel("URL", { exact: true }).inputValue();

  // Activity is reached from the trigger's row in the list.
  await page.getByRole("link", { name: "Triggers", exact: true }).first().click();
  await page.getByRole("row").filter({ hasText: name }).getByRole("link", { name }).click();
  await page.getByRole("link", { name: "Activity" }).click();
  await expect(page.getByRole("link", { name: "Activity" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("No requests yet")).toBeVisible();

  // Posted while the page is open: the 2-second poll brings the rows in without a reload.
  const body = JSON.stringify({ order: 42, status: "paid" });
  const first = await postWebhook(url, body);
  const retry = await postWebhook(url, body);
  expect([first.status, retry.status]).toEqual([200, 200]);
  const retryId = retry.headers.get("x-request-id")!;
  const firstId = first.headers.get("x-request-id")!;

  const rows = page.getByRole("table").getByRole("row");
  await expect(rows.filter({ hasText: retryId })).toContainText("Deduplicated");
  await expect(rows.filter({ hasText: firstId })).toContainText("Run");
  // Newest first: the retry's row comes before the original's.
  const texts = await rows.allInnerTexts();
  expect(texts.findIndex((t) => t.includes(retryId))).toBeLessThan(texts.findIndex((t) => t.includes(firstId)));

  // The chart of the last hour counts both outcomes.
  const chart = page.getByRole("img", { name: /Outcomes per minute/ });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAccessibleName(/1 Run, 1 Deduplicated/);
});
