import { expect, test } from "@playwright/test";
import { api, signIn, uniqueName } from "./support.ts";

test("Rotate secret with an Overlap (seconds): Reveal shows the new one, the previous one still verifies", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("rotate"), auth: { type: "bearer" } });
  const old = (await api("GET", `/api/triggers/${t.id}/secret`)).secret;
  await signIn(page);
  await page.goto(`/#/triggers/${encodeURIComponent(t.id)}`);
  await page.getByLabel("Overlap (seconds)").fill("3600");
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Rotated." })).toContainText("the previous one works until");
  await page.getByRole("button", { name: "Reveal" }).click();
  const shown = page.getByLabel("Secret", { exact: true });
  await expect(shown).not.toHaveValue("");
  const fresh = await shown.inputValue();
  expect(fresh).not.toBe(old);
  const call = (token: string) => fetch(t.url, { method: "POST", body: "{}", headers: { Authorization: `Bearer ${token}` } });
  expect((await call(fresh)).status).toBe(200);
  expect((await call(old)).status).toBe(200);
  await page.getByLabel("Overlap (seconds)").fill("a week");
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByLabel("Overlap (seconds)")).toHaveAccessibleErrorMessage("Enter a whole number of seconds from 0 to 604800.");
});

test("an app trigger whose secret the provider gives rotates with the new one pasted beside Rotate secret", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("rotate-app"), app: "stripe", appSecret: "whsec_old_one" });
  await signIn(page);
  await page.goto(`/#/triggers/${encodeURIComponent(t.id)}`);
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByText(/Paste the new/)).toBeVisible();
  await page.getByLabel(/^New /).fill("whsec_new_one");
  await page.getByLabel("Overlap (seconds)").fill("600");
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Rotated." })).toBeVisible();
  const after = await api("GET", `/api/triggers/${t.id}`);
  expect(after.auth.previousSecretExpiresAt).not.toBeNull();
});
