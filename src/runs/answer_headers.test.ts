import { expect, test } from "bun:test";
import { answerHeaders } from "./answer_headers.ts";

test("a workflow's answer never sets a cookie, whatever the header's case", () => {
  const headers = answerHeaders({ "Set-Cookie": "session=x", "SET-COOKIE2": "a=b", "X-Order": "7" });
  expect([...headers]).toEqual([["x-order", "7"]]);
  expect(headers.getSetCookie()).toEqual([]);
});

test("a header that cannot be sent is dropped, and only that header", () => {
  const headers = answerHeaders({ "X-Price": "5 €", "X-Bell": "a\u0007b", "X-Split": "a\r\nb", "Bad Name": "x", "X-Tabbed": "a\tb", "X-Name": "café" });
  expect(Object.fromEntries(headers)).toEqual({ "x-tabbed": "a\tb", "x-name": "café" });
});
