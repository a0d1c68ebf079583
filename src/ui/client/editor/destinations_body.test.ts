import { expect, test } from "bun:test";
import { deliveriesBody, type DestinationDraft } from "./destinations_body.ts";

const http = { kind: "http" as const, url: "http://127.0.0.1:9000/crm" };
const draft = (name: string, more: Partial<DestinationDraft> = {}): DestinationDraft => ({ name, workflow: { kind: "none" }, answers: false, ...more });

test("one destination named default with no settings of its own saves as the workflow shorthand", () => {
  expect(deliveriesBody([draft("default", { workflow: http })])).toEqual({ workflow: http });
  // Answering the caller alone is the trigger's response mode, not a setting of the destination.
  expect(deliveriesBody([draft("default", { workflow: http, answers: true })])).toEqual({ workflow: http });
});

test("a renamed, filtered, limited or second destination saves destinations, never workflow too", () => {
  expect(deliveriesBody([draft("crm", { workflow: http })])).toEqual({ destinations: [{ name: "crm", workflow: http }] });
  expect(deliveriesBody([draft("default", { concurrency: 4 })])).toEqual({ destinations: [{ name: "default", workflow: { kind: "none" }, concurrency: 4 }] });
  const body = deliveriesBody([
    draft("crm", {
      workflow: http,
      filter: { mode: "exclude", expression: '$.type == "test"' },
      transform: "export default (t) => ({ body: t.body })",
      rateLimit: 0.5,
    }),
    draft("audit"),
  ]);
  expect(body).toEqual({
    destinations: [
      {
        name: "crm",
        workflow: http,
        filter: { mode: "exclude", expression: '$.type == "test"' },
        transform: { source: "export default (t) => ({ body: t.body })" },
        rateLimit: { perSecond: 0.5 },
      },
      { name: "audit", workflow: { kind: "none" } },
    ],
  });
  expect("workflow" in body).toBe(false);
});

test("with several destinations the one whose Response mode is Workflow says respond, and takes it from the one that did", () => {
  const saved = { name: "crm", workflow: http, respond: true } as const;
  const body = deliveriesBody([draft("crm", { workflow: http, saved }), draft("audit", { answers: true })]);
  expect(body).toEqual({
    destinations: [
      { name: "crm", workflow: http },
      { name: "audit", workflow: { kind: "none" }, respond: true },
    ],
  });
});

test("what the panel does not show is kept as saved: the breaker, the transform's timeout, respond, a filter without mode", () => {
  const saved = {
    name: "crm",
    workflow: http,
    breaker: { failures: 0 },
    transform: { source: "x", timeoutMs: 50 },
    respond: false,
    filter: { expression: "$.a == 1" },
  };
  const body = deliveriesBody([draft("crm", { workflow: http, transform: "y", filter: { mode: "include", expression: "$.a == 2" }, saved })]);
  expect(body).toEqual({
    destinations: [
      { name: "crm", workflow: http, breaker: { failures: 0 }, transform: { source: "y", timeoutMs: 50 }, respond: false, filter: { expression: "$.a == 2" } },
    ],
  });
  // A default destination with a setting the panel does not show stays a list: the shorthand would drop it.
  expect(deliveriesBody([draft("default", { workflow: http, saved: { name: "default", workflow: http, breaker: { failures: 3 } } as never })])).toEqual({
    destinations: [{ name: "default", workflow: http, breaker: { failures: 3 } }],
  });
});
