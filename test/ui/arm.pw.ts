import { expect, test } from "@playwright/test";
import { api, signIn, uniqueName } from "./support.ts";

test("an Asana trigger shows until when it is armed; after its handshake Not armed, and Arm arms it again", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("asana"), app: "asana" });
  await signIn(page);
  await page.goto(`/#/triggers/${encodeURIComponent(t.id)}/settings`);
  const armed = page.getByRole("status").filter({ hasText: /^Armed until / });
  await expect(armed).toBeVisible();
  await expect(armed.locator("time")).toHaveAttribute("datetime", t.armedUntil);

  // Asana's handshake adopts its secret and ends the window.
  expect((await fetch(t.url, { method: "POST", headers: { "X-Hook-Secret": "adopted-secret" } })).status).toBe(200);
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: /^Not armed$/ })).toBeVisible();

  await page.getByRole("button", { name: "Arm", exact: true }).click();
  await expect(armed).toBeVisible();
  const after = await api("GET", `/api/triggers/${t.id}`);
  expect(Date.parse(after.armedUntil)).toBeGreaterThan(Date.now());
  await expect(armed.locator("time")).toHaveAttribute("datetime", after.armedUntil);
});

test("a trigger whose plugin adopts no secret has no Arm button", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("stripe"), app: "stripe", appSecret: "whsec_x" });
  await signIn(page);
  await page.goto(`/#/triggers/${encodeURIComponent(t.id)}/settings`);
  await expect(page.getByRole("heading", { level: 1, name: t.name })).toBeVisible();
  await expect(page.getByRole("button", { name: "Arm", exact: true })).toHaveCount(0);
});
