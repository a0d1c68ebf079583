import type { BulkReplayChoice } from "./bulk_replay.ts";
import { h } from "./dom.ts";
import { checkboxField } from "./field.ts";
import { replayDestinations } from "./replay_destinations.ts";
import type { Trigger } from "./types.ts";

/**
 * Which destinations' runs a bulk replay takes (README "Replay"): a `Destinations` fieldset with
 * one checkbox per destination, all ticked at each opening. A trigger with one destination (or
 * the `workflow` shorthand) has nothing to choose: none.
 */
export function destinationChoice(trigger: Trigger): BulkReplayChoice | undefined {
  const names = trigger.destinations.map((destination) => destination.name);
  if (names.length < 2) return undefined;
  const boxes = names.map((name) => checkboxField(name, true));
  for (const box of boxes) box.wrap.querySelector("label")?.classList.add("mono");
  // A live region, so that unticking the last one says why the confirm button went grey.
  const hint = h("p", { class: "hint", role: "status" });
  const el = h(
    "fieldset",
    { class: "subregion replay-destinations" },
    h("legend", null, "Destinations"),
    boxes.map((box) => box.wrap),
    hint,
  );
  const fields = () =>
    replayDestinations(
      names,
      names.filter((_, i) => boxes[i].control.checked),
    );
  const showHint = () => {
    hint.textContent = fields() ? "" : "Choose at least one destination.";
  };
  return {
    el,
    fields,
    reset() {
      for (const box of boxes) box.control.checked = true;
      showHint();
    },
    onChange(changed) {
      for (const box of boxes)
        box.control.addEventListener("change", () => {
          showHint();
          changed();
        });
    },
  };
}
