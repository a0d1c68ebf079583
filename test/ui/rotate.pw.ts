import { expect, test, type Page } from "@playwright/test";
import { api, signIn, uniqueName } from "./support.ts";

/** Reveals the bearer trigger's secret, which must differ from `old`; `call` posts to the trigger with a token. */
async function revealNew(page: Page, url: string, old: string) {
  await page.getByRole("button", { name: "Reveal" }).click();
  const shown = page.getByLabel("Secret", { exact: true });
  await expect(shown).not.toHaveValue("");
  const fresh = await shown.inputValue();
  expect(fresh).not.toBe(old);
  const call = (token: string) => fetch(url, { method: "POST", body: "{}", headers: { Authorization: `Bearer ${token}` } });
  return { fresh, call };
}

test("Rotate secret with an Overlap (seconds): Reveal shows the new one, the previous one still verifies", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("rotate"), auth: { type: "bearer" } });
  const old = (await api("GET", `/api/triggers/${t.id}/secret`)).secret;
  await signIn(page);
  await page.goto(`/#/triggers/${encodeURIComponent(t.id)}`);
  await page.getByLabel("Overlap (seconds)").fill("3600");
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Rotated." })).toContainText("the previous one works until");
  const { fresh, call } = await revealNew(page, t.url, old);
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

test("a GitHub trigger given a pasted secret rotates by pasting the next one; left empty, the API says so", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("rotate-gh"), app: "github", appSecret: "pasted-old-0123456789" });
  await signIn(page);
  await page.goto(`/#/triggers/${encodeURIComponent(t.id)}`);
  await page.getByLabel("Overlap (seconds)").fill("600");
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByText(/Not rotated: .*send the new one as appSecret/)).toBeVisible();
  await page.getByLabel(/only if you pasted your own/).fill("pasted-new-0123456789");
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Rotated." })).toBeVisible();
  expect((await api("GET", `/api/triggers/${t.id}`)).auth.previousSecretExpiresAt).not.toBeNull();
});

test("rotation by type: Authentication Type changed to another value and back, saving each time, gives a new secret and the old one fails", async ({
  page,
}) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("rotate-by-type"), auth: { type: "bearer" } });
  const old = (await api("GET", `/api/triggers/${t.id}/secret`)).secret;
  await signIn(page);
  await page.goto(`/#/triggers/${encodeURIComponent(t.id)}/settings`);
  const type = page.getByLabel("Authentication Type");
  const note = page.getByText(/^Save to apply the authentication change/);
  const save = async () => {
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
  };
  // Until saved, the curl command and secret shown are the saved ones, and a note says so.
  await expect(note).toBeHidden();
  // A change of methods keeps the secret: the note does not promise a new one.
  await page.getByLabel("Methods").selectOption({ label: "GET and POST" });
  await expect(note).toBeVisible();
  await expect(note).not.toContainText("new secret");
  await page.getByLabel("Methods").selectOption({ label: "POST" });
  await expect(note).toBeHidden();
  await type.selectOption("header");
  await expect(note).toContainText("A new Authentication Type gets a new secret.");
  await expect(page.getByLabel("Curl Command")).toHaveValue(/Authorization: Bearer/);
  await save();
  await expect(note).toBeHidden();
  await expect(page.getByLabel("Curl Command")).toHaveValue(/X-Webhook-Secret: \$INLET_SECRET/);
  await type.selectOption("bearer");
  await save();
  await expect(page.getByLabel("Curl Command")).toHaveValue(/Authorization: Bearer \$INLET_SECRET/);

  const { fresh, call } = await revealNew(page, t.url, old);
  expect((await call(fresh)).status).toBe(200);
  expect((await call(old)).status).toBe(401);
});
