import { expect, test } from "bun:test";
import { arrivalOf, triggerRecord } from "../../test/support/ingest.ts";
import { admit, notAUrlCheck } from "./admit.ts";
import { genericProtocol } from "./generic_protocol.ts";
import { RateLimiter } from "./rate_limit.ts";

const trigger = triggerRecord({ methods: ["POST"] });
const protocol = genericProtocol(trigger, {});

test("a method the trigger does not accept is 405 with Allow and a rejected row", async () => {
  const ending = admit(protocol, arrivalOf(trigger, { method: "PUT" }), undefined)!;
  expect(ending.outcome).toBe("rejected");
  expect(ending.detail).toBe("method PUT not accepted (accepts POST)");
  expect(ending.response.status).toBe(405);
  expect(ending.response.headers.get("allow")).toBe("POST");
});

test("an accepted method within the rate goes on", () => {
  expect(admit(protocol, arrivalOf(trigger), new RateLimiter(5))).toBeNull();
});

test("past the rate limit: 429 with Retry-After in whole seconds", async () => {
  const limiter = new RateLimiter(1);
  const arrival = arrivalOf(trigger);
  expect(admit(protocol, arrival, limiter)).toBeNull();
  const ending = admit(protocol, arrival, limiter)!;
  expect(ending.response.status).toBe(429);
  expect(ending.response.headers.get("retry-after")).toBe("1");
  expect(await ending.response.json()).toEqual({ error: "rate limited", request_id: arrival.requestId });
});

test("a GET that is not an app's URL check is 405 Allow: POST", () => {
  const ending = notAUrlCheck(arrivalOf(trigger, { method: "GET" }), "dropbox");
  expect(ending.response.status).toBe(405);
  expect(ending.response.headers.get("allow")).toBe("POST");
  expect(ending.detail).toContain("only for dropbox's URL check");
});
