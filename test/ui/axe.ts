import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page } from "@playwright/test";

// The panel's CSP forbids inline scripts, so axe is evaluated through the DevTools protocol
// (which CSP does not govern) rather than added as a <script> tag.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/** What axe-core finds on the page as it is now, serious and critical only, one line per node. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Debounced checks, live previews and the switch's transition settle first.
  await page.waitForTimeout(400);
  await page.evaluate(() => document.fonts.ready);
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) =>
      v.nodes.map(
        (n) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(n.target)}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, " ")}` : ""}`,
      ),
    );
}

/** Fails, naming the screen and every serious or critical violation axe-core finds on it. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const dark = await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches);
  expect(await seriousViolations(page), `axe-core on "${screen}" at ${page.viewportSize()?.width} px${dark ? ", dark" : ""}`).toEqual([]);
}
