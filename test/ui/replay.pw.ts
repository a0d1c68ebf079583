import { expect, test } from "@playwright/test";
import { api, postWebhook, signIn, uniqueName } from "./support.ts";

/** A trigger whose http workflow fails (nothing listens on the port) after one attempt. */
async function failingTrigger(extra: Record<string, unknown> = {}) {
  return api("POST", "/api/triggers", {
    name: uniqueName("replay"),
    workflow: { kind: "http", url: "http://127.0.0.1:9/unreachable", retry: { maxAttempts: 1 }, timeoutMs: 500 },
    ...extra,
  });
}

async function openTrigger(page: import("@playwright/test").Page, id: string, tab: "runs" | "activity") {
  await signIn(page);
  await page.goto(`/#/triggers/${encodeURIComponent(id)}/${tab}`);
}

test("Replay on a run starts a new run with the same $trigger, shown as a replay of it", async ({ page }) => {
  const t = await failingTrigger();
  await postWebhook(t.url, JSON.stringify({ order: 42 }));
  await expect.poll(async () => (await api("GET", `/api/runs?triggerId=${t.id}`))[0]?.status, { timeout: 10_000 }).toBe("failed");
  const [original] = await api("GET", `/api/runs?triggerId=${t.id}`);

  await openTrigger(page, t.id, "runs");
  await page.getByRole("button", { name: "Replay", exact: true }).click();
  const detail = page.locator(".run-detail");
  await expect(detail.getByText("Replay of")).toBeVisible();
  await expect(detail.getByText(original.id)).toBeVisible();
  await expect(page.getByLabel("$trigger")).toContainText('"order": 42');
  await expect.poll(async () => (await api("GET", `/api/runs?triggerId=${t.id}`)).length).toBe(2);
});

test("Replay failed runs first shows how many a dry run matched and asks to confirm", async ({ page }) => {
  const t = await failingTrigger();
  for (let i = 0; i < 3; i++) await postWebhook(t.url, JSON.stringify({ i }));
  await expect
    .poll(async () => (await api("GET", `/api/runs?triggerId=${t.id}`)).filter((r: { status: string }) => r.status === "failed").length, { timeout: 10_000 })
    .toBe(3);

  await openTrigger(page, t.id, "runs");
  await page.getByRole("button", { name: "Replay failed runs" }).click();
  const dialog = page.getByRole("dialog", { name: "Replay failed runs" });
  await expect(dialog).toContainText("3 failed runs match. Replay them?");
  // Cancel replays nothing.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  expect((await api("GET", `/api/runs?triggerId=${t.id}`)).length).toBe(3);

  await page.getByRole("button", { name: "Replay failed runs" }).click();
  await dialog.getByRole("button", { name: "Replay 3 runs" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Replayed 3 runs." })).toBeVisible();
  await expect.poll(async () => (await api("GET", `/api/runs?triggerId=${t.id}`)).filter((r: { replayOf: string | null }) => r.replayOf).length).toBe(3);
});

test("Replay on a Filtered Activity row re-delivers it through the current filter", async ({ page }) => {
  const t = await api("POST", "/api/triggers", {
    name: uniqueName("replay-filtered"),
    filter: { enabled: true, mode: "include", expression: '$.type == "paid"' },
  });
  await postWebhook(t.url, JSON.stringify({ type: "refund" }));
  await api("PATCH", `/api/triggers/${t.id}`, { filter: { expression: '$.type == "refund"' } });

  await openTrigger(page, t.id, "activity");
  const row = page.getByRole("row").filter({ hasText: "Filtered" });
  await row.getByRole("button", { name: "Replay" }).click();
  await expect(page.getByRole("row").filter({ hasText: "replay of" }).first()).toContainText("Run");
  const runs = await api("GET", `/api/runs?triggerId=${t.id}&include=trigger`);
  expect(runs).toHaveLength(1);
  expect(runs[0].trigger.body).toEqual({ type: "refund" });
});

test("a Filtered request the current filter still skips can be re-delivered without the filter", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("replay-skip"), filter: { enabled: true, mode: "include", expression: '$.type == "paid"' } });
  await postWebhook(t.url, JSON.stringify({ type: "refund" }));

  await openTrigger(page, t.id, "activity");
  const row = page.getByRole("row").filter({ hasText: "Filtered" });
  await row.getByRole("button", { name: "Replay" }).click();
  await expect(row.getByRole("status")).toContainText("Still filtered out by the current filter");
  expect(await api("GET", `/api/runs?triggerId=${t.id}`)).toHaveLength(0);
  await row.getByRole("button", { name: "Re-deliver without the filter" }).click();
  await expect(row.getByRole("status")).toContainText("Replayed: a run started");
  await expect(row.getByRole("button", { name: "Re-deliver without the filter" })).toBeHidden();
  // Its button is gone: focus is on the run it started.
  await expect(row.getByRole("link", { name: "View run" })).toBeFocused();
  const runs = await api("GET", `/api/runs?triggerId=${t.id}&include=trigger`);
  expect(runs).toHaveLength(1);
  expect(runs[0].trigger.body).toEqual({ type: "refund" });
});

test("Re-deliver filtered requests: a dry run's count, a confirmation, the current filter or none", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("replay-bulk-filtered"), filter: { enabled: true, mode: "include", expression: "$.n > 5" } });
  for (let n = 0; n < 3; n++) await postWebhook(t.url, JSON.stringify({ n }));
  await api("PATCH", `/api/triggers/${t.id}`, { filter: { expression: "$.n == 1" } });

  await openTrigger(page, t.id, "activity");
  const button = page.getByRole("button", { name: "Re-deliver filtered requests" });
  const dialog = page.getByRole("dialog", { name: "Re-deliver filtered requests" });
  await button.click();
  await expect(dialog).toContainText("3 filtered requests match. Re-deliver them?");
  await dialog.getByRole("button", { name: "Re-deliver 3 requests" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Re-delivered 1 request; 2 still filtered out." })).toBeVisible();
  expect((await api("GET", `/api/runs?triggerId=${t.id}&include=trigger`)).map((r: { trigger: { body: unknown } }) => r.trigger.body)).toEqual([{ n: 1 }]);

  // The two the filter still skips, now past it.
  await button.click();
  await expect(dialog).toContainText("2 filtered requests match. Re-deliver them?");
  await expect(dialog.getByRole("switch", { name: "Skip the current filter" })).not.toBeChecked();
  await dialog.getByLabel("Skip the current filter").check();
  await dialog.getByRole("button", { name: "Re-deliver 2 requests" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Re-delivered 2 requests." })).toBeVisible();
  const bodies = (await api("GET", `/api/runs?triggerId=${t.id}&include=trigger`)).map((r: { trigger: { body: { n: number } } }) => r.trigger.body.n);
  expect(bodies.sort()).toEqual([0, 1, 2]);
});

test("Replay failed runs can take only some destinations: the count and the replay follow the ticked ones", async ({ page }) => {
  const failing = (path: string) => ({ kind: "http", url: `http://127.0.0.1:9/${path}`, retry: { maxAttempts: 1 }, timeoutMs: 500 });
  const t = await api("POST", "/api/triggers", {
    name: uniqueName("replay-destinations"),
    destinations: [
      { name: "crm", workflow: failing("crm") },
      { name: "audit", workflow: failing("audit") },
    ],
  });
  for (let i = 0; i < 2; i++) await postWebhook(t.url, JSON.stringify({ i }));
  const failedOf = async (destination: string) =>
    (await api("GET", `/api/runs?triggerId=${t.id}`)).filter(
      (r: { status: string; destination: string }) => r.status === "failed" && r.destination === destination,
    ).length;
  await expect.poll(async () => [await failedOf("crm"), await failedOf("audit")], { timeout: 10_000 }).toEqual([2, 2]);

  await openTrigger(page, t.id, "runs");
  await page.getByRole("button", { name: "Replay failed runs" }).click();
  const dialog = page.getByRole("dialog", { name: "Replay failed runs" });
  const destinations = dialog.getByRole("group", { name: "Destinations" });
  await expect(destinations.getByRole("checkbox", { name: "crm" })).toBeChecked();
  await expect(destinations.getByRole("checkbox", { name: "audit" })).toBeChecked();
  await expect(dialog).toContainText("4 failed runs match. Replay them?");

  await destinations.getByRole("checkbox", { name: "audit" }).uncheck();
  await expect(dialog).toContainText("2 failed runs match. Replay them?");
  // None ticked: nothing to replay, and the dialog says what to do.
  await destinations.getByRole("checkbox", { name: "crm" }).uncheck();
  await expect(destinations).toContainText("Choose at least one destination.");
  await expect(dialog.getByRole("button", { name: /^Replay/ })).toBeDisabled();
  await destinations.getByRole("checkbox", { name: "crm" }).check();
  await expect(destinations).not.toContainText("Choose at least one destination.");
  await dialog.getByRole("button", { name: "Replay 2 runs" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Replayed 2 runs." })).toBeVisible();

  const replays = (await api("GET", `/api/runs?triggerId=${t.id}`)).filter((r: { replayOf: string | null }) => r.replayOf);
  expect(replays.map((r: { destination: string }) => r.destination)).toEqual(["crm", "crm"]);

  // The next opening has every destination ticked again.
  await page.getByRole("button", { name: "Replay failed runs" }).click();
  await expect(destinations.getByRole("checkbox", { name: "audit" })).toBeChecked();
});

test("a trigger with one destination has no destination choice in Replay failed runs", async ({ page }) => {
  const t = await failingTrigger();
  await postWebhook(t.url, JSON.stringify({ one: 1 }));
  await expect.poll(async () => (await api("GET", `/api/runs?triggerId=${t.id}`))[0]?.status, { timeout: 10_000 }).toBe("failed");

  await openTrigger(page, t.id, "runs");
  await page.getByRole("button", { name: "Replay failed runs" }).click();
  const dialog = page.getByRole("dialog", { name: "Replay failed runs" });
  await expect(dialog).toContainText("1 failed run matches. Replay it?");
  await expect(dialog.getByRole("group", { name: "Destinations" })).toHaveCount(0);
});
