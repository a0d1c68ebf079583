import { expect, test } from "bun:test";
import { destinationProblems, MAX_TRANSFORM_CHARS, type DestinationText } from "./destination_problems.ts";

const text = (name: string, more: Partial<DestinationText> = {}): DestinationText => ({
  name,
  rateLimit: "",
  concurrency: "",
  transform: "",
  answers: false,
  ...more,
});

test("a destination's name is lower-case letters, digits and hyphens, required, and unique (the later one is flagged)", () => {
  const problems = destinationProblems([text("crm"), text(""), text("CRM"), text("crm"), text("a".repeat(41))]);
  expect(problems.map((p) => p.name)).toEqual([
    null,
    "Enter a name: lower-case letters, digits and hyphens, for example crm.",
    "Use lower-case letters, digits and hyphens only, at most 40, for example crm.",
    "Another destination is named crm: names are unique in a trigger.",
    "Use lower-case letters, digits and hyphens only, at most 40, for example crm.",
  ]);
});

test("rate limit 0.01 to 10000 and concurrency 1 to 64, each empty for none or the default", () => {
  const ok = destinationProblems([text("a", { rateLimit: "0.01", concurrency: "64" }), text("b", { rateLimit: "10000", concurrency: "1" }), text("c")]);
  expect(ok.flatMap((p) => [p.rateLimit, p.concurrency])).toEqual([null, null, null, null, null, null]);
  const bad = destinationProblems([text("a", { rateLimit: "0", concurrency: "65" }), text("b", { rateLimit: "fast", concurrency: "1.5" })]);
  expect(bad[0].rateLimit).toStartWith("Enter run starts per second, from 0.01 to 10000");
  expect(bad[1].rateLimit).toStartWith("Enter run starts per second, from 0.01 to 10000");
  expect(bad.map((p) => p.concurrency)).toEqual([
    "Enter a whole number from 1 to 64, or leave it empty.",
    "Enter a whole number from 1 to 64, or leave it empty.",
  ]);
});

test("only one destination answers the caller: the second is told which one already does", () => {
  const problems = destinationProblems([text("crm", { answers: true }), text("audit"), text("billing", { answers: true })]);
  expect(problems.map((p) => p.answers)).toEqual([null, null, "Only one destination answers the caller, and crm already does: set this one to Immediate."]);
});

test("a transform longer than the API takes is refused in the browser", () => {
  expect(destinationProblems([text("a", { transform: "x".repeat(MAX_TRANSFORM_CHARS) })])[0].transform).toBeNull();
  expect(destinationProblems([text("a", { transform: "x".repeat(MAX_TRANSFORM_CHARS + 1) })])[0].transform).toBe(
    `A transform can be at most 65536 characters; this one has 65537.`,
  );
});
