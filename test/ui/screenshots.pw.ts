/**
 * Screenshots of every screen at desktop (1280 px) and phone (390 px) width, into
 * docs/screenshots/. Not part of `npm test` (it rewrites committed files): run it with
 * `npm run screenshots` (INLET_SCREENSHOTS=1 npx playwright test screenshots).
 */
import { expect, test, type Page } from "@playwright/test";
import { api, postWebhook, signIn, uniqueName } from "./support.ts";

test.skip(!process.env.INLET_SCREENSHOTS, "set INLET_SCREENSHOTS=1 to refresh docs/screenshots");

const SIZES = [
  ["desktop", { width: 1280, height: 800 }],
  ["phone", { width: 390, height: 844 }],
] as const;

async function shot(page: Page, name: string, size: string, whole = false) {
  // Let debounced checks and the chart settle; hide the caret so shots are stable.
  await page.waitForTimeout(600);
  const viewport = page.viewportSize()!;
  // A whole screen is shot through a tall viewport, so sticky bars sit where they would.
  if (whole) await page.setViewportSize({ width: viewport.width, height: Math.min(2400, await page.evaluate(() => document.documentElement.scrollHeight)) });
  await page.screenshot({ path: `docs/screenshots/${name}-${size}.png`, caret: "hide", animations: "disabled" });
  if (whole) await page.setViewportSize(viewport);
}

test("screens", async ({ page }) => {
  test.setTimeout(120_000);
  const name = uniqueName("orders");
  const withChecks = await api("POST", "/api/check", { kind: "filter", expression: "$.a == 1" }).then((r) => r.ok === true);
  const trigger = await api("POST", "/api/triggers", {
    name,
    methods: ["POST"],
    auth: { type: "bearer" },
    dedup: { strategy: "payload-hash" },
    ...(withChecks
      ? { filter: { enabled: true, mode: "include", expression: '$.type != "test.ping"' }, redaction: { enabled: true, patterns: ["^email$", "card"] } }
      : {}),
  });
  const { secret } = await api("GET", `/api/triggers/${trigger.id}/secret`);
  const auth = { Authorization: `Bearer ${secret}` };
  for (let i = 0; i < 6; i++) {
    const body = JSON.stringify({ event_id: `evt_${i}`, type: i === 4 ? "test.ping" : "order.paid", data: { id: i, email: "jane@example.com", card: "4242" } });
    await postWebhook(trigger.url, body, auth);
    if (i % 2 === 0) await postWebhook(trigger.url, body, auth);
  }
  await postWebhook(trigger.url, "{}", { Authorization: "Bearer wrong" });
  await api("POST", "/api/triggers", { name: uniqueName("github-pushes"), app: "github" });

  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await page.goto("/");
    await page.evaluate(() => sessionStorage.clear());
    await page.reload();
    await shot(page, "sign-in", size);
    await signIn(page);
    await shot(page, "triggers", size);

    await page.getByRole("button", { name: "New trigger" }).click();
    await page.getByLabel("Authentication Type").selectOption("hmac-sha256");
    await page.getByLabel("Name", { exact: true }).fill("payments");
    await shot(page, "new-trigger", size, size === "desktop");
    await page.getByLabel("App", { exact: true }).selectOption({ label: "GitHub" });
    await shot(page, "new-app-trigger", size);

    await page.goto(`/#/triggers/${trigger.id}/settings`);
    await page.getByRole("button", { name: "Reveal" }).click();
    await shot(page, "settings", size, size === "desktop");
    await page.getByRole("group", { name: "Deduplication" }).scrollIntoViewIfNeeded();
    await shot(page, "settings-regions", size);

    await page.getByRole("link", { name: "Activity" }).click();
    await expect(page.getByRole("cell", { name: "Deduplicated" }).first()).toBeVisible();
    await shot(page, "activity", size);

    await page.getByRole("link", { name: "Runs" }).click();
    await expect(page.getByText("$trigger", { exact: true })).toBeVisible();
    await shot(page, "runs", size, size === "desktop");
  }
});
