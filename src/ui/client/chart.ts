import { h, svg, uid } from "./dom.ts";
import type { ActivityOutcome, ActivityRow } from "./types.ts";

export const OUTCOMES: ReadonlyArray<readonly [ActivityOutcome, string]> = [
  ["run", "Run"],
  ["deduplicated", "Deduplicated"],
  ["filtered", "Filtered"],
  ["auth_failed", "Authentication failed"],
  ["rejected", "Rejected"],
  ["error", "Error"],
];

const MINUTES = 60;
const H = 180;
const PAD = { top: 12, right: 8, bottom: 24, left: 32 };

type Bucket = Record<ActivityOutcome, number>;
const emptyBucket = (): Bucket => ({ run: 0, deduplicated: 0, filtered: 0, auth_failed: 0, rejected: 0, error: 0 });
const total = (b: Bucket) => OUTCOMES.reduce((n, [o]) => n + b[o], 0);
const clock = (d: Date) => d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });

/** Counts per outcome for each of the last 60 minutes, oldest first. */
export function bucketsPerMinute(rows: ActivityRow[], now: number): Bucket[] {
  const end = Math.floor(now / 60_000) * 60_000 + 60_000;
  const start = end - MINUTES * 60_000;
  const buckets = Array.from({ length: MINUTES }, emptyBucket);
  for (const row of rows) {
    const at = Date.parse(row.at);
    if (at < start || at >= end) continue;
    buckets[Math.floor((at - start) / 60_000)][row.outcome]++;
  }
  return buckets;
}

function describe(buckets: Bucket[]): string {
  const sums = emptyBucket();
  for (const b of buckets) for (const [o] of OUTCOMES) sums[o] += b[o];
  const parts = OUTCOMES.filter(([o]) => sums[o] > 0).map(([o, label]) => `${sums[o]} ${label}`);
  return parts.length ? `In the last hour: ${parts.join(", ")}.` : "No events in the last hour.";
}

/** Outcomes per minute over the last hour, stacked bars in inline SVG, with a text summary and a legend. */
export function outcomeChart(rows: ActivityRow[], now = Date.now(), partial = false, width = 960): HTMLElement {
  // Drawn at the width it is shown at, so its text stays legible on a phone.
  const W = Math.max(300, Math.round(width));
  const buckets = bucketsPerMinute(rows, now);
  // An even top, so the middle grid line falls on a whole count.
  const peak = Math.max(1, ...buckets.map(total));
  const max = peak === 1 ? 1 : peak + (peak % 2);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const barW = plotW / MINUTES;
  const titleId = uid("chart-title");
  const descId = uid("chart-desc");
  const end = Math.floor(now / 60_000) * 60_000 + 60_000;
  const summary = describe(buckets) + (partial ? " (only the most recent events are counted)" : "");

  const grid = (max === 1 ? [0, 1] : [0, 0.5, 1]).map((f) => {
    const y = PAD.top + plotH - f * plotH;
    return svg("g", { class: "grid" }, svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y, y2: y }), svg("text", { x: PAD.left - 6, y: y + 4, "text-anchor": "end" }, String(Math.round(f * max))));
  });
  const bars = buckets.map((b, i) => {
    const x = PAD.left + i * barW;
    let y = PAD.top + plotH;
    const minute = new Date(end - (MINUTES - i) * 60_000);
    const parts = OUTCOMES.filter(([o]) => b[o] > 0).map(([o]) => {
      const height = (b[o] / max) * plotH;
      y -= height;
      return svg("rect", { class: `o-${o}`, x: x + 1, y, width: Math.max(1, barW - 2), height });
    });
    const label = `${clock(minute)}: ` + (total(b) ? OUTCOMES.filter(([o]) => b[o] > 0).map(([o, l]) => `${b[o]} ${l}`).join(", ") : "nothing");
    return svg("g", { class: "bar" }, svg("title", null, label), svg("rect", { class: "hit", x, y: PAD.top, width: barW, height: plotH }), parts);
  });
  const ticks = [0, 15, 30, 45, 60].map((m) =>
    svg("text", { class: "tick", x: PAD.left + (m / 60) * plotW, y: H - 6, "text-anchor": m === 0 ? "start" : m === 60 ? "end" : "middle" }, m === 60 ? "now" : W < 500 ? `−${60 - m}` : `−${60 - m} min`),
  );
  const chart = svg(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": `${titleId} ${descId}`, class: "chart", preserveAspectRatio: "xMidYMid meet" },
    svg("title", { id: titleId }, "Outcomes per minute, last hour"),
    svg("desc", { id: descId }, summary),
    grid,
    bars,
    ticks,
  );
  // Not a list: Activity's own rows are the list items of this screen. The chart's
  // description already names every count, so the legend is for sighted users only.
  const legend = h(
    "div",
    { class: "legend", "aria-hidden": "true" },
    OUTCOMES.map(([o, label]) => h("span", { class: "legend-item" }, h("span", { class: `swatch o-${o}` }), label)),
  );
  return h("figure", { class: "chart-figure" }, h("figcaption", null, h("strong", null, "Outcomes per minute, last hour"), h("span", { class: "muted" }, ` · ${summary}`)), chart, legend);
}
