import { expect, test } from "bun:test";
import { BodyTooLarge } from "../net/limited_body.ts";
import { errorResponse } from "./errors.ts";

test("the management API's 413 closes the connection, as the webhook path's does: the rest of the body is never read", async () => {
  const answer = errorResponse("UNKNOWN", new BodyTooLarge("body larger than 10 bytes"));
  expect(answer.status).toBe(413);
  expect(answer.headers.get("connection")).toBe("close");
  const id = answer.headers.get("x-request-id");
  expect(await answer.json()).toEqual({ error: "payload too large", request_id: id });
});
