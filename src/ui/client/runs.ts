import { announce } from "./announce.ts";
import { api } from "./api.ts";
import { type BulkReplayWording, bulkReplay } from "./bulk_replay.ts";
import { destinationChoice } from "./destination_choice.ts";
import { h, replaceChildren } from "./dom.ts";
import { timeEl } from "./time.ts";
import { jsonView } from "./json_view.ts";
import { poll } from "./poll.ts";
import type { Run, Trigger } from "./types.ts";
import type { View } from "./view.ts";

const STATUS_LABELS: Record<Run["status"], string> = { queued: "Queued", running: "Running", succeeded: "Succeeded", failed: "Failed", skipped: "Skipped" };

const FAILED_RUNS: BulkReplayWording = {
  label: "Replay failed runs",
  counted: ["failed run", "failed runs"],
  items: ["run", "runs"],
  verb: ["Replay", "Replayed"],
  hint: "Oldest first, through the same queue as live runs (live runs go first). Each new run uses the trigger's current workflow and redaction.",
  shortfall: (missing) => `${missing} not replayed (see Activity)`,
};

/** The destination a run delivers to; runs made before destinations belong to `default`. */
const destinationOf = (run: Run) => run.destination ?? "default";

function detail(run: Run, onReplay: (run: Run) => void): HTMLElement {
  const rows: Array<[string, Node | string]> = [
    ["Status", h("span", { class: `badge s-${run.status}` }, STATUS_LABELS[run.status])],
    ["Destination", destinationOf(run)],
    ["Attempts", String(run.attempts)],
    ["Request ID", h("span", { class: "mono" }, run.requestId)],
    ["Received", timeEl(run.createdAt)],
    ["Finished", timeEl(run.finishedAt)],
  ];
  if (run.replayOf) rows.push(["Replay of", h("span", { class: "mono" }, run.replayOf)]);
  if (run.orderingKey) rows.push(["Ordering key", h("span", { class: "mono" }, run.orderingKey)]);
  if (run.error) rows.push(["Error", run.error]);
  const said = h("span", { role: "status", class: "muted" });
  const replay = h("button", { type: "button", class: "secondary small" }, "Replay");
  replay.addEventListener("click", async () => {
    replay.disabled = true;
    try {
      const fresh = await api<Run>("POST", `/api/runs/${encodeURIComponent(run.id)}/replay`);
      announce("Replayed: a new run started");
      onReplay(fresh);
    } catch (error) {
      said.textContent = `Not replayed: ${(error as Error).message}`;
      replay.disabled = false;
    }
  });
  return h(
    "article",
    { class: "run-detail card", "aria-labelledby": `run-${run.id}` },
    h(
      "div",
      { class: "panel-head" },
      h("h3", { id: `run-${run.id}` }, "Run ", h("span", { class: "mono" }, run.id)),
      h("span", { class: "spacer" }),
      replay,
      said,
    ),
    h("p", { class: "hint" }, "Replay starts a new run with the same $trigger, by the trigger's current workflow and redaction."),
    h(
      "dl",
      { class: "facts" },
      rows.map(([k, v]) => [h("dt", null, k), h("dd", null, v)]),
    ),
    h("h4", null, "Result"),
    run.result === null || run.result === undefined
      ? h("p", { class: "muted" }, run.status === "queued" || run.status === "running" ? "Not finished yet." : "No result.")
      : jsonView(run.result, "Result"),
    h("h4", null, "$trigger"),
    h("p", { class: "hint" }, "What the workflow received: body, headers (credentials removed), query, method. Redacted values are highlighted."),
    jsonView(run.trigger ?? null, "$trigger"),
  );
}

/** Run history of one trigger, newest first, with the selected run's `$trigger`, status, attempts and result. */
export function runsPanel(trigger: Trigger, selectedId?: string): View {
  const base = `#/triggers/${encodeURIComponent(trigger.id)}/runs`;
  let runs: Run[] = [];
  let loaded = false;
  let selected = selectedId ?? null;
  const tbody = h("tbody");
  const detailHost = h("div", { class: "run-detail-host" });
  const empty = h("p", { class: "muted", hidden: true }, "No runs yet. Accepted requests start runs; deduplicated and filtered ones do not.");

  async function load(): Promise<void> {
    const latest = await api<Run[]>("GET", `/api/runs?triggerId=${encodeURIComponent(trigger.id)}&include=trigger&limit=50`);
    // A deep-linked run may be older than the first page.
    if (selected && !latest.some((r) => r.id === selected) && !runs.some((r) => r.id === selected)) {
      try {
        latest.push(await api<Run>("GET", `/api/runs/${encodeURIComponent(selected)}`));
      } catch {
        selected = null;
      }
    }
    // The first answer is always drawn, so that no runs at all shows "No runs yet".
    const changed = !loaded || JSON.stringify(latest) !== JSON.stringify(runs);
    loaded = true;
    runs = latest;
    if (changed) render();
  }

  function select(id: string) {
    selected = id;
    history.replaceState(null, "", `${base}/${encodeURIComponent(id)}`);
    render();
  }

  function render() {
    empty.hidden = runs.length > 0;
    const current = runs.find((r) => r.id === selected) ?? runs[0];
    replaceChildren(
      tbody,
      runs.map((run) => {
        const link = h("a", { href: `${base}/${encodeURIComponent(run.id)}`, ...(run === current ? { "aria-current": "true" } : {}) }, timeEl(run.createdAt));
        link.addEventListener("click", (event) => {
          event.preventDefault();
          select(run.id);
          detailHost.querySelector("h3")?.setAttribute("tabindex", "-1");
          (detailHost.querySelector("h3") as HTMLElement | null)?.focus();
        });
        return h(
          "tr",
          { class: run === current ? "selected" : "" },
          h("td", { "data-label": "Received" }, link),
          h("td", { "data-label": "Status" }, h("span", { class: `badge s-${run.status}` }, STATUS_LABELS[run.status])),
          h("td", { "data-label": "Destination", class: "mono" }, destinationOf(run)),
          h("td", { "data-label": "Attempts" }, String(run.attempts)),
          h(
            "td",
            { "data-label": "Request", class: "mono short", title: run.requestId },
            h("span", { "aria-hidden": "true" }, `${run.requestId.slice(0, 8)}…`),
            h("span", { class: "sr-only" }, run.requestId),
          ),
        );
      }),
    );
    replaceChildren(
      detailHost,
      current
        ? detail(current, (fresh) => {
            runs = [fresh, ...runs];
            select(fresh.id);
          })
        : "",
    );
  }

  // Replay failed runs: a dry run says how many match, then a dialog asks to confirm (and which destinations).
  const bulk = bulkReplay(trigger.id, { source: "runs", status: ["failed"] }, FAILED_RUNS, load, destinationChoice(trigger));

  const el = h(
    "section",
    { class: "runs", "aria-labelledby": "runs-heading" },
    h("div", { class: "panel-head" }, h("h2", { id: "runs-heading" }, "Runs"), h("span", { class: "spacer" }), bulk.status, bulk.button),
    bulk.dialog,
    h(
      "div",
      { class: "runs-grid" },
      h(
        "div",
        null,
        h(
          "table",
          { class: "table responsive" },
          h("caption", { class: "sr-only" }, "Runs of this trigger, newest first; choose one to see it"),
          h(
            "thead",
            null,
            h(
              "tr",
              null,
              ["Received", "Status", "Destination", "Attempts", "Request"].map((c) => h("th", { scope: "col" }, c)),
            ),
          ),
          tbody,
        ),
        empty,
      ),
      detailHost,
    ),
  );
  return { el, dispose: poll(load, 2000) };
}
