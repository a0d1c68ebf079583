import { expect, test } from "@playwright/test";
import { openNewTrigger, signIn } from "./support.ts";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await openNewTrigger(page);
});

test("GET-only disables the HMAC options in the DOM, and GET and POST enables them again", async ({ page }) => {
  const authType = page.getByLabel("Authentication Type");
  const option = (label: string) => authType.getByRole("option", { name: label, exact: true });
  const methods = page.getByLabel("Methods");
  await expect(methods.getByRole("option")).toHaveText(["POST", "GET", "GET and POST"]);
  // The first five, then Basic and JWT (docs/api.md#basic-and-jwt).
  await expect(authType.getByRole("option")).toHaveText(["none", "bearer", "header", "hmac-sha256", "hmac-sha512", "basic", "jwt"]);

  await methods.selectOption({ label: "GET" });
  await expect(option("hmac-sha256")).toBeDisabled();
  await expect(option("hmac-sha512")).toBeDisabled();
  await expect(option("bearer")).toBeEnabled();
  await expect(option("header")).toBeEnabled();
  await expect(option("basic")).toBeEnabled();
  await expect(option("jwt")).toBeEnabled();
  expect(await option("hmac-sha256").evaluate((el) => (el as HTMLOptionElement).disabled)).toBe(true);

  await methods.selectOption({ label: "GET and POST" });
  await expect(option("hmac-sha256")).toBeEnabled();
  await authType.selectOption("hmac-sha512");
  await expect(page.getByLabel("HMAC encoding")).toHaveValue("hex");
  await expect(page.getByLabel("HMAC encoding").getByRole("option")).toHaveText(["hex", "base64"]);

  // Narrowing to GET with HMAC already chosen is flagged on the field, and Save is refused.
  await methods.selectOption({ label: "GET" });
  await expect(authType).toHaveAccessibleErrorMessage(/body to sign/);
});

test("Header Name appears for header mode only and is validated as you type", async ({ page }) => {
  const headerName = page.getByLabel("Header Name", { exact: true });
  await expect(headerName).toBeHidden();
  await expect(page.getByLabel("HMAC encoding")).toBeHidden();
  await page.getByLabel("Authentication Type").selectOption("header");
  await expect(headerName).toBeVisible();
  await headerName.fill("X_Token");
  await expect(headerName).toHaveAttribute("aria-invalid", "true");
  await expect(headerName).toHaveAccessibleErrorMessage(/letters, digits and hyphens/);
  await expect(headerName).toHaveAccessibleDescription(/letters, digits and hyphens/);
  await headerName.fill("X-Token");
  await expect(headerName).not.toHaveAttribute("aria-invalid", "true");
});

test("Window (seconds) appears with a strategy, defaults to 3600, offers 60/3600/86400 and refuses more than 86400", async ({ page }) => {
  const dedup = page.getByRole("group", { name: "Deduplication" });
  const strategy = dedup.getByLabel("Strategy");
  await expect(strategy.getByRole("option")).toHaveText(["Disabled", "Event ID", "Payload Hash", "Header Value", "Expression"]);
  const windowField = dedup.getByLabel("Window (seconds)");
  await expect(windowField).toBeHidden();

  await strategy.selectOption({ label: "Payload Hash" });
  await expect(windowField).toBeVisible();
  await expect(windowField).toHaveValue("3600");
  const suggested = await windowField.evaluate((el) => [...((el as HTMLInputElement).list?.options ?? [])].map((o) => o.value));
  expect(suggested).toEqual(["60", "3600", "86400"]);

  await windowField.fill("90000");
  await expect(windowField).toHaveAccessibleErrorMessage(/at most 86400/);
  await page.getByLabel("Name", { exact: true }).fill("too-long-window");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "not saved" })).toContainText("at most 86400");
  await expect(windowField).toBeFocused();
  await expect(page).toHaveURL(/#\/new/);

  await dedup.getByRole("button", { name: /86400 seconds/ }).click();
  await expect(windowField).toHaveValue("86400");
  await expect(windowField).not.toHaveAttribute("aria-invalid", "true");

  // Header name and Expression belong to their strategies.
  await expect(dedup.getByLabel("Header name")).toBeHidden();
  await strategy.selectOption({ label: "Header Value" });
  await expect(dedup.getByLabel("Header name")).toBeVisible();
  await strategy.selectOption({ label: "Expression" });
  await expect(dedup.getByLabel("Expression")).toBeVisible();
  await strategy.selectOption({ label: "Disabled" });
  await expect(windowField).toBeHidden();
});

test("the dedup Expression is a JSONPath query, checked as you type and tried on the sample", async ({ page }) => {
  const dedup = page.getByRole("group", { name: "Deduplication" });
  await dedup.getByLabel("Strategy").selectOption({ label: "Expression" });
  const expression = dedup.getByLabel("Expression");
  await expect(expression).toHaveAccessibleDescription(/JSONPath query, for example \$\.data\.id/);
  await expression.fill("data.id");
  await expect(expression).toHaveAccessibleErrorMessage("A JSONPath query starts with $, for example $.data.id.");
  // What only the server's parser catches lands on the field too.
  await expression.fill("$.data[");
  await expect(expression).toHaveAccessibleErrorMessage(/end of input/);
  await expression.fill("$.data.id");
  await expect(expression).not.toHaveAttribute("aria-invalid", "true");
  await expect(dedup.getByRole("status")).toHaveText('On the sample it selects: ["123"]');
});

test("a server-side 400 shows each detail on its field", async ({ page }) => {
  await page.route("**/api/triggers", (route) =>
    route.request().method() === "POST"
      ? route.fulfill({
          status: 400,
          contentType: "application/json",
          body: JSON.stringify({
            error: "invalid trigger",
            details: [
              { path: "/name", message: "a trigger with this name is not allowed here" },
              { path: "/dedup/windowSeconds", message: "must be <= 86400" },
              { path: "/response/mode", message: "needs a workflow that answers" },
              { path: "/colour", message: "is not a known field" },
            ],
          }),
        })
      : route.continue(),
  );
  await page.getByLabel("Name", { exact: true }).fill("server-says-no");
  await page.getByRole("group", { name: "Deduplication" }).getByLabel("Strategy").selectOption({ label: "Event ID" });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByLabel("Name", { exact: true })).toHaveAccessibleErrorMessage("a trigger with this name is not allowed here");
  await expect(page.getByLabel("Window (seconds)")).toHaveAccessibleErrorMessage("must be <= 86400");
  await expect(page.getByRole("group", { name: "Workflow" }).getByLabel("Response mode")).toHaveAccessibleErrorMessage("needs a workflow that answers");
  // A detail with no field of its own is listed in the summary.
  await expect(page.getByRole("alert").filter({ hasText: "not saved" })).toContainText("/colour: is not a known field");
});
