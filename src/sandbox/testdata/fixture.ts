import { bundleGuest } from "../bundle_guest.ts" with { type: "macro" };
import { defineGuest } from "../guest.ts";

export const fixtureGuest = defineGuest("sandboxFixture", bundleGuest("src/sandbox/testdata/fixture_guest.ts"));
