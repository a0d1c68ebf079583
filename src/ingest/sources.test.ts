import { expect, test } from "bun:test";
import { arrivalOf, triggerRecord } from "../../test/support/ingest.ts";
import { parseAddress } from "../net/cidr.ts";
import { Ending } from "./ending.ts";
import { checkSource } from "./sources.ts";

const arrivedAt = new Date("2026-02-01T12:00:00.000Z");
const from = (address: string | null) => () => (address === null ? null : parseAddress(address));
const enforced = triggerRecord({ sources: { allow: ["192.0.2.0/24"] } });
const reporting = triggerRecord({ sources: { allow: ["192.0.2.0/24"], mode: "report", reportUntil: "2026-02-02T00:00:00Z" } });

test("an address outside the list: 403 and a rejected row naming it; inside: on, unmarked", () => {
  const outside = arrivalOf(enforced, {}, arrivedAt);
  const refused = checkSource(outside, from("203.0.113.9")) as Ending;
  expect(refused.response.status).toBe(403);
  expect([refused.outcome, refused.detail]).toEqual(["rejected", "source address 203.0.113.9 is not in the trigger's allowed sources"]);
  const inside = arrivalOf(enforced, {}, arrivedAt);
  expect(checkSource(inside, from("192.0.2.7"))).toBeNull();
  expect([outside.reportOnly, inside.reportOnly]).toEqual([{}, {}]);
});

test("report mode: an outsider goes on, marked with its address (null when unknown); an allowed caller is marked allowed", () => {
  for (const [caller, mark] of [
    ["203.0.113.9", { allowed: false, address: "203.0.113.9" }],
    [null, { allowed: false, address: null }],
    ["192.0.2.7", { allowed: true }],
  ] as const) {
    const arrival = arrivalOf(reporting, {}, arrivedAt);
    expect(checkSource(arrival, from(caller))).toBeNull();
    expect(arrival.reportOnly).toEqual({ sources: mark });
  }
});

test("from reportUntil on the list is enforced again, by itself", () => {
  const arrival = arrivalOf(reporting, {}, new Date("2026-02-02T00:00:00.000Z"));
  expect(checkSource(arrival, from("203.0.113.9"))).toBeInstanceOf(Ending);
  expect(arrival.reportOnly).toEqual({});
});
