import { expect, test } from "bun:test";
import { triggerRecord } from "../../test/support/ingest.ts";
import type { DestinationConfig } from "../records/destination.ts";
import { presentTrigger } from "./present.ts";

const BASE = "http://127.0.0.1:8080";
const http = { kind: "http", url: "http://127.0.0.1:9000/crm" } as const;
const crm: DestinationConfig = { name: "crm", workflow: http, concurrency: 4 };
const audit: DestinationConfig = { name: "audit", workflow: { kind: "command", argv: ["/usr/local/bin/audit"] } };

test("the workflow shorthand reads back with both fields: workflow, and destinations as one named default", () => {
  const shown = presentTrigger(triggerRecord({ workflow: http }), BASE);
  expect(shown.workflow).toEqual(http);
  expect(shown.destinations).toEqual([{ name: "default", workflow: http }]);
});

test("a list reads back as stored, without a workflow key (not null)", () => {
  const shown = presentTrigger(triggerRecord({ workflow: { kind: "none" }, destinations: [crm, audit] }), BASE);
  expect(shown.destinations).toEqual([crm, audit]);
  expect("workflow" in shown).toBe(false);
  expect("workflow" in presentTrigger(triggerRecord({ workflow: { kind: "none" }, destinations: [crm] }), BASE)).toBe(false);
});

test("a list of only the default destination reads back with both, its settings kept", () => {
  const only: DestinationConfig = { name: "default", workflow: http, rateLimit: { perSecond: 2 } };
  const shown = presentTrigger(triggerRecord({ workflow: http, destinations: [only] }), BASE);
  expect(shown.workflow).toEqual(http);
  expect(shown.destinations).toEqual([only]);
});
