import { expect, test } from "bun:test";
import { arrivalOf, MemoryIngestStore, triggerRecord } from "../../test/support/ingest.ts";
import { authenticateRequest, type Verified } from "./authenticate.ts";
import { deduplicate } from "./deduplicate.ts";
import { Ending } from "./ending.ts";
import { genericProtocol } from "./generic_protocol.ts";
import { ParsedBody } from "./parse.ts";

const trigger = triggerRecord({ dedup: { strategy: "header-value", headerName: "Idempotency-Key", windowSeconds: 60 } });
const protocol = genericProtocol(trigger, {});

async function verified(headers: Record<string, string>, body = "{}"): Promise<Verified> {
  const v = await authenticateRequest(protocol, arrivalOf(trigger, { headers, body }), new TextEncoder().encode(body));
  if (v instanceof Ending) throw new Error("expected a verified request");
  return v;
}

test("a new key goes on as a claim to commit with the outcome", async () => {
  const v = await verified({ "Idempotency-Key": "k1" });
  const step = await deduplicate(protocol, v, new ParsedBody(v), new MemoryIngestStore());
  expect(step).not.toBeInstanceOf(Ending);
  expect((step as { claim: { windowSeconds: number } }).claim.windowSeconds).toBe(60);
});

test("a key seen within its window ends the request as deduplicated, durably, with the plain ack", async () => {
  const store = new MemoryIngestStore();
  const first = await verified({ "Idempotency-Key": "k1" });
  const { claim } = (await deduplicate(protocol, first, new ParsedBody(first), store)) as { claim: { keyHash: string; windowSeconds: number } };
  store.keys.set(`${trigger.id}\u0000${claim.keyHash}`, Date.parse("2026-02-01T12:01:00.000Z"));
  const again = await verified({ "Idempotency-Key": "k1" });
  const ending = (await deduplicate(protocol, again, new ParsedBody(again), store)) as Ending;
  expect(ending.outcome).toBe("deduplicated");
  expect(ending.durable).toBe(true);
  expect(await ending.response.json()).toEqual({ received: true, request_id: again.arrival.requestId });
});

test("no key in the request: no dedup for it", async () => {
  const v = await verified({});
  expect(await deduplicate(protocol, v, new ParsedBody(v), new MemoryIngestStore())).toEqual({ claim: null });
});

test("an event-id key reads the body without failing on one that does not parse", async () => {
  const byEvent = triggerRecord({ dedup: { strategy: "event-id", windowSeconds: 60 } });
  const r = genericProtocol(byEvent, {});
  const body = "{broken";
  const v = (await authenticateRequest(
    r,
    arrivalOf(byEvent, { body, headers: { "Content-Type": "application/json" } }),
    new TextEncoder().encode(body),
  )) as Verified;
  expect(await deduplicate(r, v, new ParsedBody(v), new MemoryIngestStore())).toEqual({ claim: null });
});
