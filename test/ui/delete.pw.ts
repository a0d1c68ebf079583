import { expect, test } from "@playwright/test";
import { api, postWebhook, signIn, uniqueName } from "./support.ts";

const DELETE_HINT = "Deletes at once: the URL answers 404 from then on.";

test("Delete on a trigger's Settings deletes it at once: gone from the list, 404 from the API and at its URL", async ({ page }) => {
  const kept = await api("POST", "/api/triggers", { name: uniqueName("kept") });
  const doomed = await api("POST", "/api/triggers", { name: uniqueName("doomed") });
  expect((await postWebhook(doomed.url, "{}")).status).toBe(200);

  await signIn(page);
  await page.getByRole("row").filter({ hasText: doomed.name }).getByRole("link", { name: doomed.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: doomed.name })).toBeVisible();
  const del = page.getByRole("button", { name: "Delete", exact: true });
  // No confirmation step (the contract asks for none): the button's description says it acts at once.
  await expect(del).toHaveAccessibleDescription(DELETE_HINT);
  await del.click();

  // Back on the list, which no longer has it; the other trigger is untouched.
  await expect(page.getByRole("heading", { name: "Triggers", level: 1 })).toBeVisible();
  await expect(page.locator("#announcer")).toHaveText(`Deleted ${doomed.name}`);
  await expect(page.getByRole("row").filter({ hasText: kept.name })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: doomed.name })).toHaveCount(0);

  await expect(api("GET", `/api/triggers/${doomed.id}`)).rejects.toThrow(/: 404 /);
  expect((await api("GET", `/api/triggers/${kept.id}`)).name).toBe(kept.name);
  expect((await postWebhook(doomed.url, "{}")).status).toBe(404);
  await page.goto(`/#/triggers/${encodeURIComponent(doomed.id)}/settings`);
  await expect(page.getByRole("alert")).toContainText("does not exist");
});

test("a Delete the server refuses says so beside Save and keeps the trigger; a new trigger has no Delete", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("undeletable") });
  await signIn(page);
  await page.route(`**/api/triggers/${t.id}`, (route) =>
    route.request().method() === "DELETE" ? route.fulfill({ status: 503, json: { error: "store unavailable" } }) : route.continue(),
  );
  await page.goto(`/#/triggers/${encodeURIComponent(t.id)}/settings`);
  const del = page.getByRole("button", { name: "Delete", exact: true });
  await del.click();
  await expect(page.getByRole("status").filter({ hasText: "Not deleted: store unavailable" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: t.name })).toBeVisible();
  await expect(del).toBeEnabled();
  expect((await api("GET", `/api/triggers/${t.id}`)).id).toBe(t.id);

  await page.unroute(`**/api/triggers/${t.id}`);
  await page.goto("/#/new");
  await expect(page.getByLabel("Authentication Type")).toBeVisible();
  await expect(page.getByRole("button", { name: "Delete", exact: true })).toHaveCount(0);
});
