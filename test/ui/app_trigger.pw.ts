import { expect, test } from "@playwright/test";
import { api, signIn, uniqueName } from "./support.ts";

test("an app trigger is chosen before the editor, explains its handshake and dedup, and has no Deduplication region", async ({ page }) => {
  const plugins: Array<{ id: string; name: string; secret: { label: string; generated: boolean } }> = await api("GET", "/api/plugins");
  const stripe = plugins.find((p) => p.id === "stripe")!;
  await signIn(page);
  await page.getByRole("button", { name: "New trigger" }).click();
  const app = page.getByLabel("App", { exact: true });
  await expect(app).toHaveValue("webhook");
  await expect(page.getByRole("group", { name: "Deduplication" })).toBeVisible();

  await app.selectOption({ label: stripe.name });
  await expect(page.getByRole("group", { name: "Deduplication" })).toHaveCount(0);
  await expect(page.getByText(/retries of a delivery are collapsed/)).toBeVisible();
  await expect(page.getByText(/Handshake/)).toBeVisible();
  await expect(page.getByRole("group", { name: "Pre-Execution Filter" })).toBeVisible();

  const name = uniqueName("stripe");
  await page.getByLabel("Name", { exact: true }).fill(name);
  // The provider's secret is pasted, and required.
  await page.getByRole("button", { name: "Save" }).click();
  const secret = page.getByLabel(stripe.secret.label, { exact: true });
  await expect(secret).toHaveAttribute("aria-invalid", "true");
  await secret.fill("whsec_" + "a".repeat(32));
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByLabel("Curl Command")).toBeVisible();
  // Write-only: never shown back.
  await expect(page.getByLabel(stripe.secret.label, { exact: true })).toHaveValue("");
  const created = (await api("GET", "/api/triggers")).find((t: { name: string }) => t.name === name);
  expect(created).toMatchObject({ app: "stripe", auth: { hasSecret: true } });
});
