import { expect, test } from "@playwright/test";
import { openNewTrigger, signIn } from "./support.ts";

test("each settings region is a region landmark by its name in docs/api.md#the-web-panel, around the group of its fields", async ({ page }) => {
  await signIn(page);
  await openNewTrigger(page);
  for (const name of ["Deduplication", "Allowed sources", "Schema", "Pre-Execution Filter", "PII Redaction", "Destinations", "Alerts"]) {
    const region = page.getByRole("region", { name, exact: true });
    await expect(region).toBeVisible();
    await expect(region.getByRole("group", { name, exact: true })).toBeVisible();
  }
  await expect(page.getByRole("region", { name: "Allowed sources" }).getByLabel("Allowed sources")).toBeVisible();
  await expect(page.getByRole("region", { name: "Schema" }).getByRole("switch", { name: "Schema validation" })).toBeVisible();
  // The Workflow fields are per destination, in a group of each destination's group.
  await expect(
    page.getByRole("region", { name: "Destinations" }).getByRole("group", { name: "default" }).getByRole("group", { name: "Workflow" }).getByLabel("Kind"),
  ).toBeVisible();
});
