import { h } from "./dom.ts";
import { filteredReplay } from "./filtered_replay.ts";
import { timeEl } from "./time.ts";
import type { ActivityRow } from "./types.ts";

/** How many refusals a counted row stands for: "× 4,940" to the eye, "4,940 requests" to a screen reader. */
function requestCount(count: number): HTMLElement {
  const n = count.toLocaleString("en-US");
  return h("span", { class: "request-count" }, h("span", { "aria-hidden": "true" }, `× ${n}`), h("span", { class: "sr-only" }, `${n} requests`));
}

/** One request in the Activity table: its outcome, request ID, time, detail (and run), and a Filtered one's replay. */
export function activityRow(row: ActivityRow, triggerId: string): HTMLTableRowElement {
  return h(
    "tr",
    { class: `outcome-${row.outcome}` },
    h("td", { "data-label": "Outcome" }, h("span", { class: `badge o-${row.outcome}` }, row.label), row.count > 1 ? requestCount(row.count) : ""),
    h("td", { "data-label": "Request ID", class: "mono", id: `req-${row.id}` }, row.requestId),
    h("td", { "data-label": "Time" }, timeEl(row.at)),
    h(
      "td",
      { "data-label": "Detail" },
      row.detail ?? "",
      row.runId
        ? [row.detail ? " " : "", h("a", { href: `#/triggers/${encodeURIComponent(triggerId)}/runs/${encodeURIComponent(row.runId)}` }, "View run")]
        : "",
    ),
    h("td", { "data-label": "Actions" }, row.outcome === "filtered" ? filteredReplay(row, triggerId) : ""),
  );
}
