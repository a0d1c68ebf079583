import { expect, test, type Page } from "@playwright/test";
import { api, postWebhook, saveNew, startNewTrigger, triggerNamed } from "./support.ts";

const TRANSFORM = "export default ($trigger) => ({ body: { id: $trigger.body.data.id, kind: $trigger.body.type } })";
const AUDIT = "export default ($trigger) => ({ status: 200, body: { audited: true } })";

/** The destinations region's group of one destination, by its name. */
const destination = (page: Page, name: string) => page.getByRole("region", { name: "Destinations" }).getByRole("group", { name, exact: true });

test("two destinations made in the panel: filter, transform tested on the sample, limits; saved, shown again, paused and resumed; Runs names each run's destination", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const name = await startNewTrigger(page, "destinations");
  const region = page.getByRole("region", { name: "Destinations" });
  await expect(destination(page, "default").getByRole("group", { name: "Workflow" })).toBeVisible();
  await expect(region.getByRole("button", { name: "Remove destination" })).toBeDisabled();

  // The first destination, renamed: its group takes the new name.
  await destination(page, "default").getByLabel("Destination name").fill("crm");
  const crm = destination(page, "crm");
  await crm.getByRole("group", { name: "Workflow" }).getByLabel("Kind").selectOption("none");
  await crm.getByLabel("Destination filter").fill('$.type == "order.paid"');
  await expect(crm.getByLabel("Filter mode").getByRole("option")).toHaveText(["Include", "Exclude"]);
  await crm.getByLabel("Transform").fill("export default () => { throw new Error('not yet') }");
  await crm.getByRole("button", { name: "Test transform" }).click();
  await expect(crm.getByRole("status").filter({ hasText: "The transform failed" })).toContainText("not yet");
  await crm.getByLabel("Transform").fill(TRANSFORM);
  await crm.getByRole("button", { name: "Test transform" }).click();
  // The editor's sample body: {"type":"sample.created","data":{"id":"123",…}}.
  await expect(crm.getByRole("status").filter({ hasText: "On the sample body it returns" })).toBeVisible();
  await expect(crm.getByLabel("Returned body and headers")).toContainText('"id": "123"');
  await expect(crm.getByLabel("Returned body and headers")).toContainText('"kind": "sample.created"');
  await crm.getByLabel("Rate limit (per second)").fill("5");
  await crm.getByLabel("Concurrency").fill("3");

  // A second one, added after the groups: focus lands on its name.
  await region.getByRole("button", { name: "Add destination" }).click();
  await expect(region.getByLabel("Destination name").last()).toBeFocused();
  await page.keyboard.type("audit");
  const audit = destination(page, "audit");
  await audit.getByRole("group", { name: "Workflow" }).getByLabel("Kind").selectOption("script");
  await audit.getByLabel("Script").fill(AUDIT);
  await saveNew(page);

  const saved = await triggerNamed(name);
  expect(saved.destinations).toEqual([
    {
      name: "crm",
      workflow: { kind: "none" },
      filter: { mode: "include", expression: '$.type == "order.paid"' },
      transform: { source: TRANSFORM },
      rateLimit: { perSecond: 5 },
      concurrency: 3,
    },
    { name: "audit", workflow: { kind: "script", source: AUDIT } },
  ]);
  expect("workflow" in saved).toBe(false);

  await page.reload();
  await expect(destination(page, "crm").getByLabel("Destination filter")).toHaveValue('$.type == "order.paid"');
  await expect(destination(page, "crm").getByLabel("Transform")).toHaveValue(TRANSFORM);
  await expect(destination(page, "crm").getByLabel("Rate limit (per second)")).toHaveValue("5");
  await expect(destination(page, "crm").getByLabel("Concurrency")).toHaveValue("3");
  await expect(destination(page, "audit").getByRole("group", { name: "Workflow" }).getByLabel("Kind")).toHaveValue("script");

  // Pause: the badge says so at once (from the answer: the states read every few seconds are held
  // as they were meanwhile), runs of it wait; the other destination delivers.
  const states = `**/api/triggers/${saved.id}/destinations`;
  const before = await api("GET", `/api/triggers/${saved.id}/destinations`);
  await page.route(states, (route) => route.fulfill({ json: before }));
  const pause = destination(page, "audit").getByRole("button", { name: "Pause", exact: true });
  await pause.click();
  await expect(destination(page, "audit").getByText("Paused", { exact: true })).toBeVisible();
  await expect(destination(page, "audit").getByRole("button", { name: "Resume" })).toBeVisible();
  await page.unroute(states);
  await expect(destination(page, "crm").getByText("Paused", { exact: true })).toHaveCount(0);
  expect((await api("GET", `/api/triggers/${saved.id}/destinations`)).find((d: { name: string }) => d.name === "audit").state).toBe("paused");
  expect((await postWebhook(saved.url, JSON.stringify({ type: "order.paid", data: { id: "o-1" } }))).status).toBe(200);

  await page.getByRole("link", { name: "Runs" }).click();
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows.filter({ hasText: "crm" }).getByText("Succeeded", { exact: true })).toBeVisible();
  await expect(rows.filter({ hasText: "audit" }).getByText("Queued", { exact: true })).toBeVisible();

  await page.getByRole("link", { name: "Settings" }).click();
  await destination(page, "audit").getByRole("button", { name: "Resume" }).click();
  await expect(destination(page, "audit").getByText("Paused", { exact: true })).toHaveCount(0);
  await expect(destination(page, "audit").getByRole("button", { name: "Pause", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Runs" }).click();
  await expect(rows.filter({ hasText: "audit" }).getByText("Succeeded", { exact: true })).toBeVisible();
  await rows.filter({ hasText: "audit" }).getByRole("link").click();
  await expect(
    page
      .locator(".run-detail")
      .getByRole("definition")
      .filter({ hasText: /^audit$/ }),
  ).toBeVisible();
});

test("the API's refusals land on the field of the right destination; browser checks name the group in the summary", async ({ page }) => {
  await startNewTrigger(page, "dest-rules");
  const region = page.getByRole("region", { name: "Destinations" });
  await destination(page, "default").getByLabel("Destination name").fill("crm");
  await region.getByRole("button", { name: "Add destination" }).click();
  await region.getByLabel("Destination name").last().fill("crm");
  const save = page.getByRole("button", { name: "Save" });
  await save.click();
  const second = region.getByRole("group", { name: "crm", exact: true }).last();
  await expect(second.getByLabel("Destination name")).toHaveAccessibleErrorMessage("Another destination is named crm: names are unique in a trigger.");
  await expect(page.getByRole("alert").filter({ hasText: "not saved" })).toContainText("crm: Destination name: Another destination");

  await second.getByLabel("Destination name").fill("audit");
  const audit = destination(page, "audit");
  await audit.getByRole("group", { name: "Workflow" }).getByLabel("Kind").selectOption("script");
  // Only the server's parsers catch these: /destinations/1/filter/expression and /destinations/1/workflow/orderingKey.
  await audit.getByLabel("Destination filter").fill("$.type ==");
  await audit.getByRole("group", { name: "Workflow" }).getByLabel("Ordering key").fill("$.customer[");
  await save.click();
  await expect(audit.getByLabel("Destination filter")).toHaveAttribute("aria-invalid", "true");
  await expect(audit.getByLabel("Ordering key")).toHaveAccessibleErrorMessage(/position 11/);
  await expect(destination(page, "crm").getByLabel("Destination filter")).not.toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/#\/new/);
});

test("with several destinations, Response mode Workflow on one makes it the one that answers the caller", async ({ page }) => {
  const name = await startNewTrigger(page, "dest-respond");
  const region = page.getByRole("region", { name: "Destinations" });
  await destination(page, "default").getByLabel("Destination name").fill("quiet");
  await region.getByRole("button", { name: "Add destination" }).click();
  await region.getByLabel("Destination name").last().fill("answer");
  const workflow = destination(page, "answer").getByRole("group", { name: "Workflow" });
  await workflow.getByLabel("Kind").selectOption("script");
  await workflow.getByLabel("Script").fill("export default () => ({ status: 202, body: { from: 'answer' } })");
  await workflow.getByLabel("Response mode").selectOption("workflow");
  await saveNew(page);

  const saved = await triggerNamed(name);
  expect(saved.response.mode).toBe("workflow");
  expect(saved.destinations.map((d: { name: string; respond?: boolean }) => [d.name, d.respond])).toEqual([
    ["quiet", undefined],
    ["answer", true],
  ]);
  const answered = await postWebhook(saved.url, "{}");
  expect(answered.status).toBe(202);
  await page.reload();
  await expect(destination(page, "answer").getByLabel("Response mode")).toHaveValue("workflow");
  await expect(destination(page, "quiet").getByLabel("Response mode")).toHaveValue("immediate");
});
