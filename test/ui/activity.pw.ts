import { expect, test } from "@playwright/test";
import { api, openNewTrigger, postWebhook, saveNew, signIn, uniqueName } from "./support.ts";

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

test("a flood of refusals: a counted row says how many requests it stands for, and the chart counts every one, live", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("flood"), auth: { type: "bearer" } });
  const refuse = async (n: number) => {
    for (let i = 0; i < n; i += 25)
      await Promise.all(Array.from({ length: Math.min(25, n - i) }, () => postWebhook(t.url, "{}", { Authorization: "Bearer wrong" })));
  };
  // However the minutes fall, one of them holds more than its 60 own rows: a counted row.
  await refuse(200);
  await signIn(page);
  await page.goto(`/#/triggers/${t.id}/activity`);
  const chart = page.getByRole("img", { name: /Outcomes per minute/ });
  await expect(chart).toHaveAccessibleName(/200 Authentication failed/);
  const counted = page.getByRole("table").getByRole("row").filter({ hasText: /× \d+/ }).first();
  await expect(counted).toContainText("Authentication failed");
  await expect(counted).toContainText(/\d+ requests/);

  // More while the page is open: a counted row grows rather than new rows appearing, and both show it.
  await refuse(50);
  await expect(chart).toHaveAccessibleName(/250 Authentication failed/);
});
