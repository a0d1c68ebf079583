import { expect, test } from "bun:test";
import { readAnswer } from "./json_answer.ts";

test("the panel reads $trigger with its numbers as stored, and shows them so", () => {
  const body = '{"id":9007199254740993,"huge":1e400,"long":0.1000000000000000055511151231257827}';
  const run = readAnswer(`{"id":"r1","trigger":{"body":${body}}}`);
  expect(run.id).toBe("r1");
  expect(JSON.stringify(run.trigger.body)).toBe(body);
  expect(JSON.stringify(run, null, 2)).toContain('"id": 9007199254740993');
});

test("an empty or broken answer is null", () => {
  expect(readAnswer("")).toBeNull();
  expect(readAnswer("<html>")).toBeNull();
});
