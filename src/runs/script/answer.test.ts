import { expect, test } from "bun:test";
import { InvalidAnswer, scriptAnswer } from "./answer.ts";

test("{status, headers, body}: an object body is JSON, a string body is text", () => {
  expect(scriptAnswer({ status: 202, body: { ok: true } })).toEqual({ status: 202, headers: { "Content-Type": "application/json" }, body: '{"ok":true}' });
  expect(scriptAnswer({ body: "hi" })).toEqual({ status: 200, headers: { "Content-Type": "text/plain; charset=utf-8" }, body: "hi" });
  expect(scriptAnswer({ status: 204 })).toEqual({ status: 204, headers: {}, body: "" });
  expect(scriptAnswer({ headers: { "content-type": "text/csv", "X-Count": 3 }, body: "a,b" })).toEqual({
    status: 200,
    headers: { "content-type": "text/csv", "X-Count": "3" },
    body: "a,b",
  });
});

test("any other value is the body of a 200", () => {
  expect(scriptAnswer([1, 2])).toEqual({ status: 200, headers: { "Content-Type": "application/json" }, body: "[1,2]" });
  expect(scriptAnswer({ ok: true, status: 201 })).toEqual({ status: 200, headers: { "Content-Type": "application/json" }, body: '{"ok":true,"status":201}' });
  expect(scriptAnswer(undefined)).toEqual({ status: 200, headers: {}, body: "" });
  expect(scriptAnswer(7)).toEqual({ status: 200, headers: { "Content-Type": "application/json" }, body: "7" });
});

test("headers the server owns are dropped; bad statuses and headers are refused", () => {
  expect(scriptAnswer({ headers: { "Content-Length": "9", "X-Request-Id": "mine", "Transfer-Encoding": "chunked" }, body: "x" }).headers).toEqual({
    "Content-Type": "text/plain; charset=utf-8",
  });
  expect(() => scriptAnswer({ status: 99 })).toThrow(InvalidAnswer);
  expect(() => scriptAnswer({ status: 200.5 })).toThrow("whole number");
  expect(() => scriptAnswer({ status: "200" })).toThrow(InvalidAnswer);
  expect(() => scriptAnswer({ headers: { "bad name": "x" } })).toThrow("not valid");
  expect(() => scriptAnswer({ headers: { "X-A": "a\r\nSet-Cookie: x" } })).toThrow("line break");
  expect(() => scriptAnswer({ headers: ["x"] })).toThrow("object");
});
