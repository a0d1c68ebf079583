import type { BulkReplayWording } from "./bulk_replay.ts";

/** The most one confirmation replays (the API's `limit` default and bound). */
export const AT_MOST = 1000;

/** What the dialog says of a dry run that `matched` so many, and what its confirm button offers. */
export interface BulkReplayOffer {
  /** How many the confirmation replays at most: 0 when there is nothing to confirm. */
  offered: number;
  question: string;
  confirm: string;
}

export function bulkReplayOffer(matched: number, wording: Pick<BulkReplayWording, "counted" | "items" | "verb">): BulkReplayOffer {
  const [one, many] = wording.counted;
  const [verb, past] = wording.verb;
  const offered = Math.min(matched, AT_MOST);
  const question =
    matched === 0
      ? `No ${many} match.`
      : matched > offered
        ? `${matched} ${many} match; the oldest ${offered} will be ${past.toLowerCase()}.`
        : `${matched} ${matched === 1 ? `${one} matches` : `${many} match`}. ${verb} ${matched === 1 ? "it" : "them"}?`;
  return { offered, question, confirm: `${verb} ${offered} ${offered === 1 ? wording.items[0] : wording.items[1]}` };
}
