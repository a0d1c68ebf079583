import { expect, test } from "bun:test";
import { triggerRecord } from "../../test/support/ingest.ts";
import { okState } from "../records/destination_state.ts";
import { destinationGauges } from "./destination_metrics.ts";
import { Metrics } from "./metrics.ts";

test("every destination of every trigger: 1 for its state, 0 for the others, and its queued runs", () => {
  const t = triggerRecord({
    id: "t1",
    workflow: { kind: "none" },
    destinations: [
      { name: "crm", workflow: { kind: "http", url: "http://127.0.0.1:9/" } },
      { name: "audit", workflow: { kind: "command", argv: ["/bin/true"] } },
    ],
  });
  const states = [
    { ...okState("t1", "crm"), breaker: "open" as const },
    { ...okState("t1", "audit"), paused: true },
  ];
  const text = new Metrics().render({}, destinationGauges([t], states, [{ triggerId: "t1", destination: "crm", queued: 7, running: 2 }]));
  expect(text).toContain('inlet_destination_state{trigger="t1",destination="crm",state="open"} 1');
  expect(text).toContain('inlet_destination_state{trigger="t1",destination="crm",state="ok"} 0');
  expect(text).toContain('inlet_destination_state{trigger="t1",destination="audit",state="paused"} 1');
  expect(text).toContain('inlet_destination_queued{trigger="t1",destination="crm"} 7');
  expect(text).toContain('inlet_destination_queued{trigger="t1",destination="audit"} 0');
});
