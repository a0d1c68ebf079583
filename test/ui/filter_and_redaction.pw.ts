import { expect, test } from "@playwright/test";
import { openNewTrigger, postWebhook, saveNew, signIn, uniqueName } from "./support.ts";

test("a filter written with = is rejected as you type, with a message that says to use ==", async ({ page }) => {
  await signIn(page);
  await openNewTrigger(page);
  const region = page.getByRole("group", { name: "Pre-Execution Filter" });
  const toggle = region.getByRole("switch", { name: "Pre-Execution Filter" });
  await toggle.check();
  await expect(toggle).toBeChecked();
  await expect(region.getByLabel("Mode").getByRole("option")).toHaveText(["Include", "Exclude"]);

  const expression = region.getByLabel("Expression");
  await expression.fill('$.type = "order.paid"');
  await expect(expression).toHaveAttribute("aria-invalid", "true");
  await expect(expression).toHaveAccessibleErrorMessage(/==/);

  // Fixed, it evaluates against the sample box: the default sample's type is "sample.created".
  await expression.fill('$.type == "order.paid"');
  await expect(expression).not.toHaveAttribute("aria-invalid", "true");
  const sample = page.getByLabel("Sample body");
  await expect(region.getByRole("status")).toContainText("false");
  await sample.fill(JSON.stringify({ type: "order.paid" }));
  await expect(region.getByRole("status")).toHaveText("true (the workflow runs)");
  // Exclude skips the workflow when the expression is true.
  await region.getByLabel("Mode").selectOption({ label: "Exclude" });
  await expect(region.getByRole("status")).toHaveText("true (skipped: 200, no run)");
  await expect(region.getByLabel("Mode")).toHaveAccessibleDescription(/skipped \(200, no run\) when the expression is true/);
});

test("the redacted preview matches field names only, case-insensitively, as a substring unless anchored", async ({ page }) => {
  await signIn(page);
  await openNewTrigger(page);
  const region = page.getByRole("group", { name: "PII Redaction" });
  const patterns = region.getByLabel("Field patterns");
  const preview = region.getByLabel("Redacted preview");
  await page.getByLabel("Sample body").fill(JSON.stringify({ Email: "jane@example.com", email_verified: "yes", note: "email jane" }));
  await patterns.fill("EMAIL");
  await expect(preview).toContainText('"Email": "[REDACTED]"');
  await expect(preview).toContainText('"email_verified": "[REDACTED]"');
  // A value is never matched, even one that contains the pattern.
  await expect(preview).toContainText('"note": "email jane"');
  await patterns.fill("^email$");
  await expect(preview).toContainText('"email_verified": "yes"');
  await expect(preview).toContainText('"Email": "[REDACTED]"');
});

test("a run of a trigger with PII Redaction shows [REDACTED] in its $trigger under Runs", async ({ page }) => {
  await signIn(page);
  await openNewTrigger(page);
  const name = uniqueName("redact");
  await page.getByLabel("Name", { exact: true }).fill(name);
  const region = page.getByRole("group", { name: "PII Redaction" });
  await region.getByRole("switch", { name: "PII Redaction" }).check();
  await region.getByLabel("Field patterns").fill("^email$\ncard");
  // The preview redacts the sample body (it has data.email).
  await expect(region.getByLabel("Redacted preview")).toContainText('"email": "[REDACTED]"');
  await saveNew(page);
  const url = await page.getByLabel("URL", { exact: true }).inputValue();

  const response = await postWebhook(
    url,
    JSON.stringify({ user: { email: "jane@example.com", name: "Jane" }, card_number: "4242424242424242", note: "email me" }),
  );
  expect(response.status).toBe(200);

  await page.getByRole("link", { name: "Runs" }).click();
  const trigger = page.getByLabel("$trigger");
  await expect(trigger).toContainText('"email": "[REDACTED]"');
  await expect(trigger).toContainText('"card_number": "[REDACTED]"');
  await expect(trigger).toContainText('"note": "email me"');
  await expect(trigger).not.toContainText("jane@example.com");
  await expect(page.getByText("Succeeded").first()).toBeVisible();
});

test("Field patterns are checked line by line: syntax through /api/check, at most 50, at most 200 characters", async ({ page }) => {
  await signIn(page);
  await openNewTrigger(page);
  const patterns = page.getByRole("group", { name: "PII Redaction" }).getByLabel("Field patterns");
  await patterns.fill("^email$\n\n(bad");
  await expect(patterns).toHaveAccessibleErrorMessage(/^Line 3: .*\(bad.*not a valid regular expression/);
  await patterns.fill(Array.from({ length: 51 }, (_, i) => `field${i}`).join("\n"));
  await expect(patterns).toHaveAccessibleErrorMessage(/at most 50 patterns/);
  await patterns.fill(`ok\n${"a".repeat(201)}`);
  await expect(patterns).toHaveAccessibleErrorMessage(/Line 2: 201 characters long; the limit is 200/);
  await patterns.fill("^email$\ncard");
  await expect(patterns).not.toHaveAttribute("aria-invalid", "true");
});
