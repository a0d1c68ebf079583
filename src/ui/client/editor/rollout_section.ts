import { conditional, h, options } from "../dom.ts";
import { field } from "../field.ts";
import { formatTime } from "../time.ts";
import { fromLocalInput, reportUntilProblem, toLocalInput } from "./report_until.ts";
import type { Section } from "./section.ts";

interface Rollout {
  mode?: "enforce" | "report";
  reportUntil?: string;
}

const MODES = [
  ["enforce", "Enforce"],
  ["report", "Report only"],
] as const;

/** What each check marks on a request it lets through in report mode. */
const MARK = { auth: "$trigger.auth.verified is false", sources: "$trigger.sources.allowed is false" };

/**
 * `Mode` (Enforce / Report only) and `Report until` of a check that can be rolled out
 * report-only first (README "Report-only rollout"); `key` is the TriggerInput object they belong
 * to. Left as saved, nothing is sent, so a window that has ended does not keep other changes
 * from saving.
 */
export function rolloutSection(key: "auth" | "sources", saved: Rollout | undefined): Section {
  const savedMode = saved?.mode ?? "enforce";
  const savedUntil = savedMode === "report" ? toLocalInput(saved?.reportUntil) : "";
  const mode = field(
    "Mode",
    h("select", { name: `${key}Mode` }, options(MODES, savedMode)),
    `Enforce refuses a request that fails. Report only accepts it (${MARK[key]}, and its Activity row starts "report-only:") until the date below, then enforces by itself.`,
  );
  const ended = savedMode === "report" && saved?.reportUntil !== undefined && Date.parse(saved.reportUntil) <= Date.now();
  const until = field(
    "Report until",
    h("input", { type: "datetime-local", name: `${key}ReportUntil`, value: savedUntil }),
    ended ? `Ended ${formatTime(saved!.reportUntil!)}: the trigger enforces again. Choose a new time to report again.` : "Local time, at most 30 days ahead.",
  );
  const untilSlot = conditional(until.wrap);
  const reporting = () => mode.control.value === "report";
  const changed = () => mode.control.value !== savedMode || (reporting() && until.control.value !== savedUntil);
  const update = () => {
    // A week ahead to start from: a rollout long enough to see every sender, short of the limit.
    if (reporting() && until.control.value === "") until.control.value = toLocalInput(new Date(Date.now() + 7 * 86_400_000).toISOString());
    untilSlot.set(reporting());
  };
  mode.control.addEventListener("change", update);
  const el = h("div", { class: "stack" }, mode.wrap, untilSlot.anchor);
  update();

  return {
    el,
    value() {
      if (!changed()) return {};
      return { [key]: reporting() ? { mode: "report", reportUntil: fromLocalInput(until.control.value) } : { mode: "enforce" } };
    },
    validate() {
      const problem = changed() && reporting() ? reportUntilProblem(fromLocalInput(until.control.value), new Date()) : null;
      until.setError(problem);
      return problem ? until.control : null;
    },
    fields: [mode, until],
    fieldFor: (path) => (path === `/${key}/mode` ? mode : path === `/${key}/reportUntil` ? until : null),
  };
}
