import { expect, test } from "bun:test";
import { sampleTrigger, transformTestBlocker } from "./test_transform.ts";

test("Test transform hands the transform the sample body as a POST with no headers or query", () => {
  expect(sampleTrigger({ id: 7 })).toEqual({ body: { id: 7 }, headers: {}, query: {}, method: "POST" });
});

test("Test transform says what is missing instead of calling the server", () => {
  expect(transformTestBlocker("  ", { state: "ok", value: {} })).toBe("Enter a transform to test it.");
  expect(transformTestBlocker("export default () => null", { state: "empty" })).toStartWith("Paste a sample body");
  expect(transformTestBlocker("export default () => null", { state: "invalid", message: "x" })).toBe("The sample body is not valid JSON.");
  expect(transformTestBlocker("export default () => null", { state: "ok", value: null })).toBeNull();
});
