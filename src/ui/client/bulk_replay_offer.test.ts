import { expect, test } from "bun:test";
import type { BulkReplayWording } from "./bulk_replay.ts";
import { bulkReplayOffer } from "./bulk_replay_offer.ts";

const RUNS: Pick<BulkReplayWording, "counted" | "items" | "verb"> = {
  counted: ["failed run", "failed runs"],
  items: ["run", "runs"],
  verb: ["Replay", "Replayed"],
};

test("a dry run's count becomes the question and the confirm button", () => {
  expect(bulkReplayOffer(3, RUNS)).toEqual({ offered: 3, question: "3 failed runs match. Replay them?", confirm: "Replay 3 runs" });
  expect(bulkReplayOffer(1, RUNS)).toEqual({ offered: 1, question: "1 failed run matches. Replay it?", confirm: "Replay 1 run" });
});

test("more than one confirmation replays offers the oldest 1000", () => {
  expect(bulkReplayOffer(1500, RUNS)).toEqual({
    offered: 1000,
    question: "1500 failed runs match; the oldest 1000 will be replayed.",
    confirm: "Replay 1000 runs",
  });
});

test("none matching (the choice in the dialog narrowed it to nothing) offers nothing", () => {
  expect(bulkReplayOffer(0, RUNS)).toMatchObject({ offered: 0, question: "No failed runs match." });
});
