import { expect, test } from "bun:test";
import { compareNumbers, isExactDouble, jsonNumber, numberText } from "./decimal.ts";
import { ExactNumber } from "./exact_number.ts";

const exact = (text: string) => new ExactNumber(text);

test("a number text stays a double exactly when the double is the number written; else it is kept as text", () => {
  for (const text of ["0", "-0", "1", "1.50", "0.1", "1e21", "1E+2", "9007199254740992", "-9007199254740991", "123456789012345", "5e-324"]) {
    expect({ text, value: jsonNumber(text) }).toEqual({ text, value: Number(text) });
  }
  for (const text of ["9007199254740993", "-9007199254740993", "1e400", "-1e400", "1e-400", "0.1000000000000000055511151231257827", "12345678901234567890"]) {
    expect({ text, value: jsonNumber(text) }).toEqual({ text, value: exact(text) });
  }
  expect(isExactDouble("1e400", Infinity)).toBe(false);
});

test("big integers compare by their digits, against each other and against doubles", () => {
  expect(compareNumbers(exact("9007199254740993"), 9007199254740992)).toBe(1);
  expect(compareNumbers(9007199254740992, exact("9007199254740993"))).toBe(-1);
  expect(compareNumbers(exact("9007199254740993"), exact("9007199254740993.0"))).toBe(0);
  expect(compareNumbers(exact("9007199254740993"), exact("9007199254740994"))).toBe(-1);
  expect(compareNumbers(exact("-9007199254740993"), exact("-9007199254740994"))).toBe(1);
  expect(compareNumbers(exact("-9007199254740993"), 3)).toBe(-1);
  expect(compareNumbers(exact("12345678901234567890"), exact("9007199254740993"))).toBe(1);
  expect(compareNumbers(exact("1e400"), exact("1e399"))).toBe(1);
  expect(compareNumbers(exact("1e400"), Number.MAX_VALUE)).toBe(1);
  expect(compareNumbers(exact("1e-400"), 0)).toBe(1);
  expect(compareNumbers(exact("-1e-400"), 0)).toBe(-1);
});

test("a long fraction differs from the double nearest to it", () => {
  expect(compareNumbers(exact("0.1000000000000000055511151231257827"), 0.1)).toBe(1);
  expect(compareNumbers(exact("0.0999999999999999999999"), 0.1)).toBe(-1);
  expect(compareNumbers(1.5, 2)).toBe(-1);
  expect(compareNumbers(2, 2)).toBe(0);
});

test("canonical text: JavaScript's way of writing a number, with every digit", () => {
  expect(numberText(42)).toBe("42");
  expect(numberText(1e21)).toBe("1e+21");
  expect(numberText(exact("9007199254740993"))).toBe("9007199254740993");
  expect(numberText(exact("9007199254740993.000"))).toBe("9007199254740993");
  expect(numberText(exact("90071992547409930e-1"))).toBe("9007199254740993");
  expect(numberText(exact("-9007199254740993"))).toBe("-9007199254740993");
  expect(numberText(exact("1e400"))).toBe("1e+400");
  expect(numberText(exact("1E400"))).toBe("1e+400");
  expect(numberText(exact("1e-400"))).toBe("1e-400");
  expect(numberText(exact("0.1000000000000000055511151231257827"))).toBe("0.1000000000000000055511151231257827");
  expect(numberText(exact("123456789012345678901234"))).toBe("1.23456789012345678901234e+23");
  expect(numberText(exact("0.0000001234567890123456789"))).toBe("1.234567890123456789e-7");
});
