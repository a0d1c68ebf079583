import { expect, test } from "bun:test";
import { timingSafeAnyOf } from "./any_of.ts";
import { cannotSign, CannotSignError } from "./cannot_sign.ts";

test("any of several candidates may match; none or nothing does not", () => {
  expect(timingSafeAnyOf(["aa", "bb", "cc"], "bb")).toBe(true);
  expect(timingSafeAnyOf(["aa", "b"], "bb")).toBe(false);
  expect(timingSafeAnyOf([], "bb")).toBe(false);
  expect(timingSafeAnyOf([Uint8Array.from([1, 2])], Uint8Array.from([1, 2]))).toBe(true);
});

test("cannotSign is a TypeError with a code and says what is missing", () => {
  const error = cannotSign("the secret is empty");
  expect(error).toBeInstanceOf(TypeError);
  expect(error).toBeInstanceOf(CannotSignError);
  expect(error.code).toBe("cannot_sign");
  expect(error.message).toBe("cannot sign: the secret is empty");
});
