import { activityFeed, ACTIVITY_PAGE } from "./activity_feed.ts";
import { activityRow } from "./activity_row.ts";
import { api } from "./api.ts";
import { bulkReplay } from "./bulk_replay.ts";
import { outcomeChart } from "./chart.ts";
import { h, replaceChildren } from "./dom.ts";
import { timeEl } from "./time.ts";
import { poll } from "./poll.ts";
import type { ActivityRow, Trigger } from "./types.ts";
import type { View } from "./view.ts";

const SHOW_STEP = 50;

/** Every Filtered request again, oldest first: the current filter decides, unless skipped. */
function filteredBulkReplay(trigger: Trigger, done: () => unknown) {
  return bulkReplay(
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
    done,
  );
}

/** The "Live" mark and the button that pauses (and resumes) the refresh. */
function liveToggle(): { live: HTMLElement; pause: HTMLButtonElement; paused(): boolean } {
  let paused = false;
  const pause = h("button", { type: "button", class: "secondary small", "aria-pressed": "false" }, "Pause updates");
  const live = h("span", { class: "live-dot" }, "Live");
  pause.addEventListener("click", () => {
    paused = !paused;
    pause.setAttribute("aria-pressed", String(paused));
    live.textContent = paused ? "Paused" : "Live";
    live.classList.toggle("paused", paused);
  });
  return { live, pause, paused: () => paused };
}

/**
 * Monitoring → Activity: every request's outcome, newest first, refreshed every 2 seconds, with
 * the last hour as a chart of outcomes per minute.
 */
export function activityPanel(trigger: Trigger): View {
  const path = `/api/triggers/${encodeURIComponent(trigger.id)}/activity`;
  const feed = activityFeed((before) => api<ActivityRow[]>("GET", `${path}?limit=${ACTIVITY_PAGE}${before ? `&before=${encodeURIComponent(before)}` : ""}`));
  let shown = SHOW_STEP;

  const chartHost = h("div", { class: "chart-host" });
  const tbody = h("tbody");
  const updated = h("span", { class: "muted" });
  const empty = h("p", { class: "muted", hidden: true }, "No requests yet. Call the trigger's URL (Settings has a curl command) and they appear here.");
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Show older");
  const { live, pause, paused } = liveToggle();

  function renderChart() {
    // The figure's padding and border take about 34 px of the host's width.
    replaceChildren(chartHost, outcomeChart(feed.rows, Date.now(), feed.partialHour, (chartHost.clientWidth || 960) - 34));
  }

  function render() {
    renderChart();
    empty.hidden = feed.rows.length > 0;
    replaceChildren(
      tbody,
      feed.rows.slice(0, shown).map((row) => activityRow(row, trigger.id)),
    );
    more.hidden = feed.complete && shown >= feed.rows.length;
  }

  async function refresh(): Promise<void> {
    if (await feed.refresh()) render();
    else renderChart();
    replaceChildren(updated, "Updated ", timeEl(new Date().toISOString()));
  }

  const bulk = filteredBulkReplay(trigger, () => refresh());
  more.addEventListener("click", async () => {
    shown += SHOW_STEP;
    if (shown > feed.rows.length && !feed.complete) await feed.older();
    render();
  });

  const el = h(
    "section",
    { class: "activity", "aria-labelledby": "activity-heading" },
    h(
      "div",
      { class: "panel-head" },
      h("h2", { id: "activity-heading" }, "Activity"),
      live,
      updated,
      h("span", { class: "spacer" }),
      bulk.status,
      bulk.button,
      pause,
    ),
    bulk.dialog,
    chartHost,
    h(
      "table",
      { class: "table responsive activity-table" },
      h("caption", { class: "sr-only" }, "Requests to this trigger, newest first"),
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          ["Outcome", "Request ID", "Time", "Detail", "Actions"].map((c) => h("th", { scope: "col" }, c)),
        ),
      ),
      tbody,
    ),
    empty,
    more,
  );
  const stop = poll(refresh, 2000, paused);
  return { el, dispose: stop };
}
