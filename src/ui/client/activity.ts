import { announce } from "./announce.ts";
import { api } from "./api.ts";
import { bulkReplay } from "./bulk_replay.ts";
import { outcomeChart } from "./chart.ts";
import { h, replaceChildren } from "./dom.ts";
import { timeEl } from "./time.ts";
import { poll } from "./poll.ts";
import type { ActivityRow, Run, Trigger } from "./types.ts";
import type { View } from "./view.ts";

const PAGE = 200;
const HOUR = 3_600_000;
const MAX_PAGES = 10;
const SHOW_STEP = 50;
/**
 * A counted row of refusals keeps growing through its clock minute (README "Bounded refusals"):
 * rows this recent are read again even below the first page, up to RECOUNT_PAGES pages.
 */
const RECOUNT_MS = 120_000;
const RECOUNT_PAGES = 3;

/**
 * Monitoring → Activity: every request's outcome, newest first, refreshed every 2 seconds, with
 * the last hour as a chart of outcomes per minute.
 */
export function activityPanel(trigger: Trigger): View {
  const path = `/api/triggers/${encodeURIComponent(trigger.id)}/activity`;
  let rows: ActivityRow[] = [];
  let complete = false; // every row of the trigger is loaded
  let partialHour = false;
  let shown = SHOW_STEP;
  let paused = false;

  const chartHost = h("div", { class: "chart-host" });
  const tbody = h("tbody");
  const updated = h("span", { class: "muted" });
  const empty = h("p", { class: "muted", hidden: true }, "No requests yet. Call the trigger's URL (Settings has a curl command) and they appear here.");
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Show older");
  const pause = h("button", { type: "button", class: "secondary small", "aria-pressed": "false" }, "Pause updates");
  const live = h("span", { class: "live-dot" }, "Live");

  async function page(before?: string): Promise<ActivityRow[]> {
    return api<ActivityRow[]>("GET", `${path}?limit=${PAGE}${before ? `&before=${encodeURIComponent(before)}` : ""}`);
  }

  /**
   * New rows since the last tick; on the first, enough to cover the last hour. A counted row of
   * refusals seen again may have grown: its new count replaces the old.
   */
  async function refresh(): Promise<void> {
    const known = new Map(rows.map((r, i) => [r.id, i]));
    const fresh: ActivityRow[] = [];
    let recounted = false;
    let before: string | undefined;
    for (let i = 0; i < MAX_PAGES; i++) {
      const batch = await page(before);
      for (const row of batch) {
        const at = known.get(row.id);
        if (at !== undefined && rows[at].count !== row.count) {
          rows[at] = row;
          recounted = true;
        }
      }
      const unseen = batch.filter((r) => !known.has(r.id));
      fresh.push(...unseen);
      const last = batch[batch.length - 1];
      if (batch.length < PAGE) {
        if (rows.length === 0) complete = true;
        break;
      }
      const recent = Date.parse(last.at) >= Date.now() - RECOUNT_MS && i + 1 < RECOUNT_PAGES;
      if (unseen.length < batch.length && !recent) break;
      if (rows.length === 0 && Date.parse(last.at) < Date.now() - HOUR) break;
      before = last.id;
      if (i === MAX_PAGES - 1 && rows.length === 0) partialHour = true;
    }
    if (fresh.length > 0 || recounted || rows.length === 0) {
      rows = [...fresh, ...rows];
      render();
    } else renderChart();
    replaceChildren(updated, "Updated ", timeEl(new Date().toISOString()));
  }

  function renderChart() {
    // The figure's padding and border take about 34 px of the host's width.
    replaceChildren(chartHost, outcomeChart(rows, Date.now(), partialHour, (chartHost.clientWidth || 960) - 34));
  }

  function render() {
    renderChart();
    empty.hidden = rows.length > 0;
    replaceChildren(
      tbody,
      rows.slice(0, shown).map((r) =>
        h(
          "tr",
          { class: `outcome-${r.outcome}` },
          h("td", { "data-label": "Outcome" }, h("span", { class: `badge o-${r.outcome}` }, r.label), r.count > 1 ? requestCount(r.count) : ""),
          h("td", { "data-label": "Request ID", class: "mono", id: `req-${r.id}` }, r.requestId),
          h("td", { "data-label": "Time" }, timeEl(r.at)),
          h(
            "td",
            { "data-label": "Detail" },
            r.detail ?? "",
            r.runId ? [r.detail ? " " : "", h("a", { href: `#/triggers/${encodeURIComponent(trigger.id)}/runs/${encodeURIComponent(r.runId)}` }, "View run")] : "",
          ),
          h("td", { "data-label": "Actions" }, r.outcome === "filtered" ? replayButton(r) : ""),
        ),
      ),
    );
    more.hidden = complete && shown >= rows.length;
  }

  /** How many refusals a counted row stands for: "× 4,940" to the eye, "4,940 requests" to a screen reader. */
  function requestCount(count: number): HTMLElement {
    const n = count.toLocaleString("en-US");
    return h("span", { class: "request-count" }, h("span", { "aria-hidden": "true" }, `× ${n}`), h("span", { class: "sr-only" }, `${n} requests`));
  }

  /**
   * A Filtered request goes through the current filter again; the outcome is said where the
   * button was. One the filter still skips can then be re-delivered without it.
   */
  function replayButton(row: ActivityRow): HTMLElement {
    const said = h("span", { class: "replay-result", role: "status" });
    const button = h("button", { type: "button", class: "secondary small", "aria-describedby": `req-${row.id}` }, "Replay");
    const skip = h("button", { type: "button", class: "secondary small", "aria-describedby": `req-${row.id}`, hidden: true }, "Re-deliver without the filter");
    const replay = async (filter: "apply" | "skip", clicked: HTMLButtonElement) => {
      clicked.disabled = true;
      try {
        const answer = await api<Run | { outcome: "filtered" }>("POST", `${path}/${encodeURIComponent(row.id)}/replay`, { filter });
        const message = "id" in answer ? "Replayed: a run started" : "Still filtered out by the current filter";
        const view = "id" in answer ? h("a", { href: `#/triggers/${encodeURIComponent(trigger.id)}/runs/${encodeURIComponent(answer.id)}` }, "View run") : null;
        said.replaceChildren(message, " ", view ?? "");
        // The button clicked may go: focus goes on to the run it started.
        if (view && clicked === skip) view.focus();
        skip.hidden = view !== null;
        announce(message);
      } catch (error) {
        said.textContent = `Not replayed: ${(error as Error).message}`;
      } finally {
        clicked.disabled = false;
      }
    };
    button.addEventListener("click", () => replay("apply", button));
    skip.addEventListener("click", () => replay("skip", skip));
    return h("span", { class: "replay-cell" }, button, said, skip);
  }

  // Every Filtered request again, oldest first: the current filter decides, unless skipped.
  const bulk = bulkReplay(
    trigger.id,
    { source: "filtered" },
    {
      label: "Re-deliver filtered requests",
      counted: ["filtered request", "filtered requests"],
      items: ["request", "requests"],
      verb: ["Re-deliver", "Re-delivered"],
      hint: "Oldest first, within the Activity retention period. Each goes through the trigger's current filter (unless skipped below), redaction and workflow; those that pass start a run.",
      option: { label: "Skip the current filter", hint: "Each starts a run whatever the filter says.", field: "filter", on: "skip", off: "apply" },
      // Through the current filter, one it still skips starts no run; past it, a shortfall is something else.
      shortfall: (missing, sent) => (sent.filter === "apply" ? `${missing} still filtered out` : `${missing} not re-delivered (see Activity)`),
    },
    () => refresh(),
  );

  more.addEventListener("click", async () => {
    shown += SHOW_STEP;
    if (shown > rows.length && !complete) {
      const older = await page(rows[rows.length - 1]?.id);
      if (older.length < PAGE) complete = true;
      rows = [...rows, ...older];
    }
    render();
  });
  pause.addEventListener("click", () => {
    paused = !paused;
    pause.setAttribute("aria-pressed", String(paused));
    live.textContent = paused ? "Paused" : "Live";
    live.classList.toggle("paused", paused);
  });

  const el = h(
    "section",
    { class: "activity", "aria-labelledby": "activity-heading" },
    h("div", { class: "panel-head" }, h("h2", { id: "activity-heading" }, "Activity"), live, updated, h("span", { class: "spacer" }), bulk.status, bulk.button, pause),
    bulk.dialog,
    chartHost,
    h(
      "table",
      { class: "table responsive activity-table" },
      h("caption", { class: "sr-only" }, "Requests to this trigger, newest first"),
      h("thead", null, h("tr", null, ["Outcome", "Request ID", "Time", "Detail", "Actions"].map((c) => h("th", { scope: "col" }, c)))),
      tbody,
    ),
    empty,
    more,
  );
  const stop = poll(refresh, 2000, () => paused);
  return { el, dispose: stop };
}
