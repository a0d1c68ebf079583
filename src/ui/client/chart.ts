import { h, svg, uid } from "./dom.ts";
import { formatClock } from "./time.ts";
import type { ActivityOutcome, ActivityRow } from "./types.ts";

export const OUTCOMES: ReadonlyArray<readonly [ActivityOutcome, string]> = [
  ["run", "Run"],
  ["deduplicated", "Deduplicated"],
  ["filtered", "Filtered"],
  ["auth_failed", "Authentication failed"],
  ["rejected", "Rejected"],
  ["error", "Error"],
];

/**
 * Each outcome but Run also has a texture (drawn over its colour in the bars and the legend), so
 * outcomes are told apart without relying on colour: `style.css` draws the same in the legend.
 */
const TEXTURES: Record<ActivityOutcome, string | null> = {
  run: null,
  deduplicated: "M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2", // rising diagonals
  filtered: "dots",
  auth_failed: "M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2 M-1,5 l2,2 M0,0 l6,6 M5,-1 l2,2", // cross-hatch
  rejected: "M0,1.5 h6 M0,4.5 h6", // horizontal lines
  error: "M-1,5 l2,2 M0,0 l6,6 M5,-1 l2,2", // falling diagonals
};

function textures(ids: Record<string, string>): SVGElement {
  return svg(
    "defs",
    null,
    OUTCOMES.filter(([o]) => TEXTURES[o]).map(([o]) =>
      svg(
        "pattern",
        { id: ids[o], width: 6, height: 6, patternUnits: "userSpaceOnUse" },
        TEXTURES[o] === "dots" ? svg("circle", { class: "ink-dot", cx: 3, cy: 3, r: 1.4 }) : svg("path", { class: "ink", d: TEXTURES[o]! }),
      ),
    ),
  );
}

const MINUTES = 60;
const H = 180;
const PAD = { top: 12, right: 8, bottom: 24, left: 32 };

type Bucket = Record<ActivityOutcome, number>;
const emptyBucket = (): Bucket => ({ run: 0, deduplicated: 0, filtered: 0, auth_failed: 0, rejected: 0, error: 0 });
const total = (b: Bucket) => OUTCOMES.reduce((n, [o]) => n + b[o], 0);

/** Requests per outcome for each of the last 60 minutes, oldest first (a counted row adds its count). */
export function bucketsPerMinute(rows: readonly ActivityRow[], now: number): Bucket[] {
  const end = Math.floor(now / 60_000) * 60_000 + 60_000;
  const start = end - MINUTES * 60_000;
  const buckets = Array.from({ length: MINUTES }, emptyBucket);
  for (const row of rows) {
    const at = Date.parse(row.at);
    if (at < start || at >= end) continue;
    buckets[Math.floor((at - start) / 60_000)][row.outcome] += row.count;
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
export function outcomeChart(rows: readonly ActivityRow[], now = Date.now(), partial = false, width = 960): HTMLElement {
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
  const textureIds = Object.fromEntries(OUTCOMES.map(([o]) => [o, uid(`texture-${o}`)]));

  const grid = (max === 1 ? [0, 1] : [0, 0.5, 1]).map((f) => {
    const y = PAD.top + plotH - f * plotH;
    return svg(
      "g",
      { class: "grid" },
      svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y, y2: y }),
      svg("text", { x: PAD.left - 6, y: y + 4, "text-anchor": "end" }, String(Math.round(f * max))),
    );
  });
  const bars = buckets.map((b, i) => {
    const x = PAD.left + i * barW;
    let y = PAD.top + plotH;
    const minute = new Date(end - (MINUTES - i) * 60_000);
    const parts = OUTCOMES.filter(([o]) => b[o] > 0).map(([o]) => {
      const height = (b[o] / max) * plotH;
      y -= height;
      const box = { x: x + 1, y, width: Math.max(1, barW - 2), height };
      return [svg("rect", { class: `o-${o}`, ...box }), TEXTURES[o] ? svg("rect", { class: "texture", fill: `url(#${textureIds[o]})`, ...box }) : null];
    });
    const label =
      `${formatClock(minute)}: ` +
      (total(b)
        ? OUTCOMES.filter(([o]) => b[o] > 0)
            .map(([o, l]) => `${b[o]} ${l}`)
            .join(", ")
        : "nothing");
    return svg("g", { class: "bar" }, svg("title", null, label), svg("rect", { class: "hit", x, y: PAD.top, width: barW, height: plotH }), parts);
  });
  const ticks = [0, 15, 30, 45, 60].map((m) =>
    svg(
      "text",
      { class: "tick", x: PAD.left + (m / 60) * plotW, y: H - 6, "text-anchor": m === 0 ? "start" : m === 60 ? "end" : "middle" },
      m === 60 ? "now" : W < 500 ? `−${60 - m}` : `−${60 - m} min`,
    ),
  );
  const chart = svg(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": `${titleId} ${descId}`, class: "chart", preserveAspectRatio: "xMidYMid meet" },
    svg("title", { id: titleId }, "Outcomes per minute, last hour"),
    svg("desc", { id: descId }, summary),
    textures(textureIds),
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
  return h(
    "figure",
    { class: "chart-figure" },
    h("figcaption", null, h("strong", null, "Outcomes per minute, last hour"), h("span", { class: "muted" }, ` · ${summary}`)),
    chart,
    legend,
  );
}
