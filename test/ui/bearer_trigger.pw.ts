import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { copyButtonFor, openNewTrigger, saveNew, signIn, uniqueName } from "./support.ts";

const run = promisify(execFile);

test("a bearer trigger made in the panel answers its own copied curl command, run with the revealed secret", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page);
  await openNewTrigger(page);

  // Authentication Type is the editor's first field, before Name.
  const form = page.getByRole("form", { name: "New trigger settings" });
  await expect(form.locator("input, select, textarea").first()).toHaveAccessibleName("Authentication Type");
  await expect(page.getByLabel("Authentication Type")).toHaveValue("none");

  const name = uniqueName("bearer");
  await page.getByLabel("Authentication Type").selectOption("bearer");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await saveNew(page);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  // The secret stays hidden until Reveal.
  const secretField = page.getByLabel("Secret", { exact: true });
  await expect(secretField).toHaveAttribute("type", "password");
  await expect(secretField).toHaveValue("");
  await page.getByRole("button", { name: "Reveal" }).click();
  await expect(secretField).toHaveAttribute("type", "text");
  const secret = await secretField.inputValue();
  expect(secret.length).toBeGreaterThanOrEqual(20);

  // Copy the curl command the way a user would, then run it with the secret in INLET_SECRET.
  const curlField = page.getByLabel("Curl Command");
  await expect(curlField).toHaveJSProperty("readOnly", true);
  const curlCopy = await copyButtonFor(curlField);
  await expect(curlCopy).toHaveAccessibleName("Copy");
  await expect(curlCopy).toHaveAccessibleDescription("Curl Command");
  await curlCopy.click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await curlField.inputValue());
  expect(copied).toContain("$INLET_SECRET");

  const { stdout } = await run("sh", ["-c", copied], { env: { ...process.env, INLET_SECRET: secret }, timeout: 15_000 });
  const answer = JSON.parse(stdout);
  expect(answer).toMatchObject({ received: true });

  // Without the secret the same command is refused.
  const refused = await run("sh", ["-c", `${copied} -o /dev/null -w '%{http_code}'`], { env: { ...process.env, INLET_SECRET: "wrong" }, timeout: 15_000 });
  expect(refused.stdout).toBe("401");

  await page.getByRole("link", { name: "Activity" }).click();
  const row = page.getByRole("row").filter({ hasText: answer.request_id });
  await expect(row).toContainText("Run");
  await expect(page.getByRole("row").filter({ hasText: "Authentication failed" })).toHaveCount(1);
});
