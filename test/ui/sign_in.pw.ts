import { expect, test } from "@playwright/test";
import { ADMIN_TOKEN, signIn } from "./support.ts";

test("a wrong admin token is refused with a message tied to the field", async ({ page }) => {
  await page.goto("/");
  const token = page.getByLabel("Admin token");
  await token.fill("not-the-token-at-all");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(token).toHaveAttribute("aria-invalid", "true");
  await expect(token).toHaveAccessibleErrorMessage("That admin token was not accepted. Lost it? On the server, inlet admin-token reset prints a new one.");
  await expect(page.getByRole("button", { name: "New trigger" })).toHaveCount(0);
});

test("signing in with the keyboard shows the trigger list, and the session survives a reload", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByLabel("Admin token")).toBeFocused();
  await page.keyboard.type(ADMIN_TOKEN);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Triggers", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "New trigger" })).toBeVisible();
  // The token lives in sessionStorage, not in a cookie or localStorage.
  expect(await page.evaluate(() => [sessionStorage.length, localStorage.length, document.cookie])).toEqual([1, 0, ""]);
  await page.reload();
  await expect(page.getByRole("button", { name: "New trigger" })).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByLabel("Admin token")).toBeVisible();
});

test("the page loads nothing from other origins", async ({ page }) => {
  const origins = new Set<string>();
  page.on("request", (request) => origins.add(new URL(request.url()).origin));
  await signIn(page);
  expect([...origins]).toEqual([new URL(page.url()).origin]);
});

test("the panel is usable from the keyboard, with a visible focus ring", async ({ page }) => {
  await signIn(page);
  const newTrigger = page.getByRole("button", { name: "New trigger" });
  for (let i = 0; i < 10 && !(await newTrigger.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(newTrigger).toBeFocused();
  const outline = await newTrigger.evaluate((el) => getComputedStyle(el).outlineStyle + " " + getComputedStyle(el).outlineWidth);
  expect(outline).toMatch(/^solid [1-9]/);
  await page.keyboard.press("Enter");
  // The new screen's heading takes focus; the first field is one Tab away from the App choice.
  await expect(page.getByRole("heading", { level: 1, name: "New trigger" })).toBeFocused();
  await page.getByLabel("App", { exact: true }).focus();
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Authentication Type")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
});
