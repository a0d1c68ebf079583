import { expect, test } from "bun:test";
import { headersProblem, lines, parseHeaders } from "./workflow_text.ts";

test("request headers are Name: value lines; blank lines are skipped and a value may hold colons", () => {
  expect(parseHeaders("X-Team: ops\n\n  Authorization: Bearer a:b  \r\n")).toEqual({ headers: { "X-Team": "ops", Authorization: "Bearer a:b" } });
  expect(headersProblem("")).toBeNull();
});

test("a header line without a name before its colon is reported by its number among the non-blank lines", () => {
  expect(parseHeaders("X-Team: ops\n\nbroken")).toEqual({ problem: "Line 2: write Name: value." });
  expect(headersProblem(": value")).toBe("Line 1: write Name: value.");
});

test("a command's lines are its argv, trimmed, blank lines left out", () => {
  expect(lines("/bin/cat\n  -n \n\n-")).toEqual(["/bin/cat", "-n", "-"]);
});
