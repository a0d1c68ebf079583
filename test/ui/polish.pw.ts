import { expect, test, type Page } from "@playwright/test";
import { api, openNewTrigger, postWebhook, signIn, uniqueName } from "./support.ts";

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Every `<time>` in main: its text, and its `datetime` written the panel's way in the browser's local time. */
async function times(page: Page): Promise<Array<{ text: string; fromDatetime: string; title: string }>> {
  return page.locator("main time").evaluateAll((els) =>
    els.map((el) => {
      const d = new Date(el.getAttribute("datetime") ?? "");
      const p = (n: number) => String(n).padStart(2, "0");
      const fromDatetime = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
      return { text: el.textContent ?? "", fromDatetime, title: el.getAttribute("title") ?? "" };
    }),
  );
}

function expectOneFormat(found: Array<{ text: string; fromDatetime: string; title: string }>, where: string) {
  expect(found.length, `times on ${where}`).toBeGreaterThan(0);
  for (const t of found) {
    expect(t.text, where).toMatch(DATE_TIME);
    expect(t.text, where).toBe(t.fromDatetime);
    expect(t.title, where).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  }
}

test("every time in the panel is one date-and-time format, with the exact instant in datetime and title", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("times"), auth: { type: "bearer" } });
  const { secret } = await api("GET", `/api/triggers/${t.id}/secret`);
  await postWebhook(t.url, JSON.stringify({ n: 1 }), { Authorization: `Bearer ${secret}` });
  await postWebhook(t.url, "{}", { Authorization: "Bearer wrong" });
  await signIn(page);
  await expect(page.getByRole("row").filter({ hasText: t.name })).toBeVisible();
  expectOneFormat(await times(page), "the trigger list");

  await page.goto(`/#/triggers/${t.id}/activity`);
  await expect(page.getByRole("table").getByText("Authentication failed")).toBeVisible();
  // The rows and "Updated …" alike.
  await expect(page.getByText(/^Updated /)).toBeVisible();
  expectOneFormat(await times(page), "Activity");
  expect(await page.locator(".panel-head time").count()).toBe(1);

  await page.goto(`/#/triggers/${t.id}/runs`);
  await expect(page.getByText("Succeeded").first()).toBeVisible();
  expectOneFormat(await times(page), "Runs");

  await page.goto(`/#/triggers/${t.id}/settings`);
  await page.getByLabel("Overlap (seconds)").fill("600");
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Rotated." })).toBeVisible();
  expectOneFormat(await times(page), "Settings after a rotation");
  // The sample picker lists recent runs the same way.
  await expect(page.getByLabel("Recent run").getByRole("option").nth(1)).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} · /);
});

test("a switched-off filter or redaction keeps its text at full contrast and its fields editable, and says it is off", async ({ page }) => {
  await signIn(page);
  await openNewTrigger(page);
  for (const name of ["Pre-Execution Filter", "PII Redaction"]) {
    const region = page.getByRole("group", { name });
    const toggle = region.getByRole("switch", { name, exact: true });
    await expect(toggle).not.toBeChecked();
    await expect(region.locator(".switch-state")).toHaveText("Off: not applied");
    expect(await region.evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe("dashed");
    // Nothing inside is faded, and every control can be edited before the switch is on.
    const faded = await region.evaluate((el) =>
      [...el.querySelectorAll("*")].filter((n) => Number(getComputedStyle(n).opacity) < 1).map((n) => n.outerHTML.slice(0, 80)),
    );
    expect(faded).toEqual([]);
    for (const control of await region.locator("input:not([type=checkbox]), select, textarea").all()) await expect(control).toBeEditable();

    await toggle.check();
    await expect(region.locator(".switch-state")).toHaveText("On");
    expect(await region.evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe("solid");
    // The written state is for the eye: the switch's name stays its label.
    await expect(toggle).toHaveAccessibleName(name);
  }
});

test("the window presets are named by their visible text first, and set the window", async ({ page }) => {
  await signIn(page);
  await openNewTrigger(page);
  const dedup = page.getByRole("group", { name: "Deduplication" });
  await dedup.getByLabel("Strategy").selectOption({ label: "Payload Hash" });
  for (const [seconds, words] of [
    ["60", "1 minute"],
    ["3600", "1 hour"],
    ["86400", "24 hours"],
  ]) {
    const preset = dedup.getByRole("button", { name: new RegExp(`^${seconds} s`) });
    // What shows is the button's own text; the rest of its name is visually hidden (1 px, clipped).
    const shown = await preset.evaluate((el) => ({
      text: [...el.childNodes]
        .filter((n) => !(n instanceof HTMLElement && n.getBoundingClientRect().width <= 1))
        .map((n) => n.textContent)
        .join("")
        .trim(),
      hidden: [...el.querySelectorAll("span")].every((n) => n.getBoundingClientRect().width <= 1),
    }));
    expect(shown).toEqual({ text: `${seconds} s`, hidden: true });
    await expect(preset).toHaveAccessibleName(`${seconds} s (${seconds} seconds, ${words})`);
    await preset.click();
    await expect(dedup.getByLabel("Window (seconds)")).toHaveValue(seconds);
  }
});

test("each outcome has its own colour, far from the others and clear of the background, and its own texture", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("colours"), auth: { type: "bearer" } });
  await postWebhook(t.url, "{}", { Authorization: "Bearer wrong" });
  await signIn(page);
  await page.goto(`/#/triggers/${t.id}/activity`);
  await expect(page.getByRole("table").getByText("Authentication failed")).toBeVisible();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const swatches = await page.locator(".legend .swatch").evaluateAll((els) =>
      els.map((el) => ({
        label: el.parentElement!.textContent,
        colour: getComputedStyle(el).backgroundColor,
        texture: getComputedStyle(el).backgroundImage,
      })),
    );
    const surface = await page.locator(".chart-figure").evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(swatches.map((s) => s.label)).toEqual(["Run", "Deduplicated", "Filtered", "Authentication failed", "Rejected", "Error"]);
    for (const s of swatches) expect(contrast(s.colour, surface), `${s.label} on the chart (${scheme})`).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < swatches.length; i++) {
      for (let j = i + 1; j < swatches.length; j++) {
        expect(deltaE(swatches[i].colour, swatches[j].colour), `${swatches[i].label} vs ${swatches[j].label} (${scheme})`).toBeGreaterThan(25);
      }
    }
    // Not by colour alone: every outcome but Run has a texture, each different.
    const textures = swatches.slice(1).map((s) => s.texture);
    expect(textures.every((x) => x !== "none")).toBe(true);
    expect(new Set(textures).size).toBe(textures.length);
  }
  // The bar of the failed request carries the Authentication failed texture over its colour.
  const texture = page.locator(".chart rect.texture");
  await expect(texture).toHaveCount(1);
  const fill = await texture.getAttribute("fill");
  expect(await page.locator(`.chart pattern${fill!.slice(4, -1)} path`).count()).toBe(1);
});

test("the sample body box shows every line of the sample, and scrolls only when it is long", async ({ page }) => {
  await signIn(page);
  await openNewTrigger(page);
  const sample = page.getByLabel("Sample body");
  const fits = () => sample.evaluate((el) => el.scrollHeight <= el.clientHeight);
  // The default sample (the curl command's body) is eight lines.
  await expect(sample).toHaveValue(/\n}$/);
  expect(await fits()).toBe(true);

  const medium = JSON.stringify(Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`field_${i}`, i])), null, 2);
  await sample.fill(medium);
  expect(await fits()).toBe(true);

  const long = JSON.stringify(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`field_${i}`, i])), null, 2);
  await sample.fill(long);
  const box = await sample.evaluate((el) => ({
    scroll: el.scrollHeight,
    client: el.clientHeight,
    overflow: getComputedStyle(el).overflowY,
    viewport: innerHeight,
  }));
  expect(box.scroll).toBeGreaterThan(box.client);
  expect(box.overflow).toBe("auto");
  expect(box.client).toBeLessThan(box.viewport);
});

test("the Runs table, dates and all, fits its column beside the run's detail", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("runs-width") });
  await postWebhook(t.url, JSON.stringify({ n: 1 }));
  await signIn(page);
  for (const width of [1100, 1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/#/triggers/${t.id}/runs`);
    await expect(page.getByText("Succeeded").first()).toBeVisible();
    const overflow = await page
      .locator(".runs table")
      .evaluate((table) => table.getBoundingClientRect().right - table.parentElement!.getBoundingClientRect().right);
    expect(overflow, `at ${width} px`).toBeLessThanOrEqual(1);
  }
});

test("Runs of a trigger with no runs says so", async ({ page }) => {
  const t = await api("POST", "/api/triggers", { name: uniqueName("no-runs") });
  await signIn(page);
  await page.goto(`/#/triggers/${t.id}/runs`);
  await expect(page.getByText("No runs yet.")).toBeVisible();
});

// Colour arithmetic for "rgb(r, g, b)" strings (WCAG relative luminance; CIE76 distance in Lab).
const channels = (css: string) => (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
const linear = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
const luminance = (css: string) => {
  const [r, g, b] = channels(css).map(linear);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
function lab(css: string): number[] {
  const [r, g, b] = channels(css).map(linear);
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const x = f((r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047);
  const y = f(r * 0.2126 + g * 0.7152 + b * 0.0722);
  const z = f((r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}
const deltaE = (a: string, b: string) => Math.hypot(...lab(a).map((v, i) => v - lab(b)[i]));
