import { h } from "../dom.ts";
import type { Destination, Trigger } from "../types.ts";
import { destinationGroup, type DestinationGroup } from "./destination_group.ts";
import { destinationProblems } from "./destination_problems.ts";
import { watchDestinationStates } from "./destination_states.ts";
import { DEFAULT_DESTINATION, deliveriesBody } from "./destinations_body.ts";
import type { SampleSource, Section } from "./section.ts";

/** At most this many destinations per trigger (README "Destinations"). */
const MAX_DESTINATIONS = 16;

/** The saved destinations, each with the response it shows: the trigger's own on the one that answers the caller. */
function savedDestinations(trigger: Trigger | null): Array<{ saved: Partial<Destination>; response?: Trigger["response"] }> {
  if (!trigger) return [{ saved: { name: DEFAULT_DESTINATION } }];
  const all = trigger.destinations ?? [{ name: DEFAULT_DESTINATION, workflow: trigger.workflow ?? { kind: "none" } }];
  const answering = all.find((d) => d.respond) ?? (all.length === 1 ? all[0] : undefined);
  const immediate = { mode: "immediate" as const, timeoutMs: trigger.response.timeoutMs };
  return all.map((d) => ({ saved: d, response: d === answering ? trigger.response : immediate }));
}

/**
 * The Destinations region (README "The web panel"): each destination a group named by its name,
 * with its Workflow group, filter, transform and limits; on a saved trigger also its state with
 * Pause or Resume. The body is the `workflow` shorthand while there is one plain `default`.
 */
export function destinationsSection(trigger: Trigger | null, sample: SampleSource): Section {
  const list = h("div", { class: "stack" });
  const groups: DestinationGroup[] = [];
  const add = h("button", { type: "button", class: "secondary small" }, "Add destination");

  function append(saved: Partial<Destination>, response?: Trigger["response"]): DestinationGroup {
    const group = destinationGroup({ saved, response, triggerId: trigger?.id, sample });
    group.remove.addEventListener("click", () => {
      groups.splice(groups.indexOf(group), 1);
      group.el.remove();
      arrange();
      add.focus();
    });
    groups.push(group);
    list.append(group.el);
    arrange();
    return group;
  }

  /** One destination at least, sixteen at most; several name their fields in the error summary. */
  function arrange(): void {
    for (const g of groups) g.remove.disabled = groups.length === 1;
    add.disabled = groups.length >= MAX_DESTINATIONS;
    for (const g of groups) g.nameFields(groups.length > 1);
  }

  add.addEventListener("click", () => {
    const group = append({}, trigger ? { mode: "immediate", timeoutMs: trigger.response.timeoutMs } : undefined);
    group.fields[0].control.focus();
  });
  for (const { saved, response } of savedDestinations(trigger)) append(saved, response);
  if (trigger) watchDestinationStates(trigger.id, list, () => groups);

  const el = h(
    "fieldset",
    { class: "region" },
    h("legend", null, "Destinations"),
    h(
      "p",
      { class: "hint" },
      "Each accepted request makes one run per destination whose filter selects it; each has its own queue and limits. With Response mode Workflow the caller waits for that destination's answer: one destination at most.",
    ),
    list,
    add,
  );

  /** The group that answers the caller (Response mode Workflow), else the first. */
  const answering = () => groups.find((g) => g.text().answers) ?? groups[0];

  return {
    el,
    value() {
      return { ...deliveriesBody(groups.map((g) => g.draft())), response: answering().response() };
    },
    validate() {
      arrange();
      const problems = destinationProblems(groups.map((g) => g.text()));
      let first: HTMLElement | null = null;
      groups.forEach((g, i) => (first ??= g.validate(problems[i])));
      return first;
    },
    get fields() {
      return groups.flatMap((g) => g.fields);
    },
    fieldFor(path) {
      const m = /^\/destinations\/(\d+)(.*)$/.exec(path);
      if (m) return groups[Number(m[1])]?.fieldFor(m[2]) ?? null;
      // A save of the shorthand is refused at its own paths: the one group's.
      if (path.startsWith("/workflow")) return groups[0]?.fieldFor(path) ?? null;
      if (path.startsWith("/response")) return answering()?.fieldFor(path) ?? null;
      return null;
    },
  };
}
