import { expect, test } from "bun:test";
import { arrivalOf, triggerRecord } from "../../test/support/ingest.ts";
import { readBody } from "./receive_body.ts";
import { Ending } from "./ending.ts";

const trigger = triggerRecord();

test("a body within the limit is read as exact bytes", async () => {
  const bytes = Uint8Array.from([0x7b, 0xff, 0x00, 0x7d]);
  const read = await readBody(arrivalOf(trigger, { body: bytes }), 4);
  expect(read).toEqual(bytes);
});

test("a declared length over the limit is 413 before reading, with a rejected row", async () => {
  const arrival = arrivalOf(trigger, { body: "x".repeat(10) });
  const ending = (await readBody(arrival, 4)) as Ending;
  expect(ending).toBeInstanceOf(Ending);
  expect(ending.outcome).toBe("rejected");
  expect(ending.detail).toContain("exceeds 4 bytes");
  expect(await ending.response.json()).toEqual({ error: "payload too large", request_id: arrival.requestId });
});

test("a streamed body is cut as soon as it crosses the limit", async () => {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(3));
      if (pulled === 100) controller.close();
    },
  });
  const ending = await readBody(arrivalOf(trigger, { body: stream }), 7);
  expect(ending).toBeInstanceOf(Ending);
  expect(pulled).toBeLessThan(10);
});
