import { expect, test } from "bun:test";
import { ExactNumber } from "./exact_number.ts";
import { mayHoldInexactNumbers } from "./inexact_numbers.ts";
import { readJsonExactly } from "./json_reader.ts";
import { jsonText, write } from "./json_text.ts";
import { parseJson, parseJsonCounting } from "./parse_json.ts";
import { asDoubles } from "./as_doubles.ts";
import { jsonNumber } from "./decimal.ts";

const SENT =
  '{"big":9007199254740993,"safe":9007199254740992,"huge":1e400,"long":0.1000000000000000055511151231257827,"plain":[1,2.5,-3],"s":"9007199254740993"}';

test("numbers a double cannot hold are kept as their text; JSON.stringify writes them as sent", () => {
  const { value, exactNumbers } = parseJsonCounting(SENT);
  expect(exactNumbers).toBe(3);
  expect(value).toEqual({
    big: new ExactNumber("9007199254740993"),
    safe: 9007199254740992,
    huge: new ExactNumber("1e400"),
    long: new ExactNumber("0.1000000000000000055511151231257827"),
    plain: [1, 2.5, -3],
    s: "9007199254740993",
  });
  expect(JSON.stringify(value)).toBe(SENT);
  expect(`${(value as { big: ExactNumber }).big}`).toBe("9007199254740993");
});

test("the reader for engines without source text (QuickJS) parses as JSON.parse does, numbers kept", () => {
  expect(readJsonExactly(SENT)).toEqual(parseJsonCounting(SENT));
  const odd = '{"__proto__":{"x":1},"a":1,"a":[true,false,null,"\\u00e9\\n\\"",{}],"":[]}';
  const read = readJsonExactly(odd).value as Record<string, unknown>;
  expect(read).toEqual(JSON.parse(odd));
  expect(Object.keys(read)).toEqual(["__proto__", "a", ""]);
  expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
  expect(readJsonExactly(" [ 1 , 12345678901234567890 ] ").value).toEqual([1, new ExactNumber("12345678901234567890")]);
  for (const bad of ["", "{", "[1,]", '{"a" 1}', "01", "1 2", "tru", '"\u0001"']) expect(() => readJsonExactly(bad)).toThrow(SyntaxError);
});

test("a body without such numbers is parsed by JSON.parse alone; digits and exponents inside strings do not count", () => {
  expect(mayHoldInexactNumbers('{"id":"evt_1Nq2xY2eZvKYlo2C9X0aBcDe","hex":"0e1f2e3","n":123456789012345,"card":"4242424242424242"}')).toBe(false);
  expect(mayHoldInexactNumbers('{"n":1234567890123456}')).toBe(true);
  expect(mayHoldInexactNumbers("9007199254740993")).toBe(true);
  expect(mayHoldInexactNumbers("[-1.5E-300]")).toBe(true);
  expect(mayHoldInexactNumbers('{"a": 1e400}')).toBe(true);
  // At most 15 digits and a two-digit exponent: inside a double's normal range, always exact.
  expect(mayHoldInexactNumbers('{"a": 12.25e2, "b": -1.5E-3, "c": 999999999999999e99}')).toBe(false);
  expect(mayHoldInexactNumbers('{"s": "ae123", "t": "id_1234567890123456"}')).toBe(false);
  for (let i = 0; i < 2000; i++) {
    const digits = String(((i + 1) * 982451653 * 1000003) % 1e15).slice(0, 1 + (i % 15));
    const point = i % 3 === 0 ? `${digits.slice(0, 1)}.${digits.slice(1) || "0"}` : digits;
    const text = `${i % 2 ? "-" : ""}${point.length > 15 ? digits : point}e${i % 4 ? "-" : ""}${i % 100}`;
    expect({ text, skipped: mayHoldInexactNumbers(text), exact: typeof jsonNumber(text) === "number" }).toEqual({ text, skipped: false, exact: true });
  }
  expect(parseJsonCounting('{"a":"2e3","b":1.5}')).toEqual({ value: { a: "2e3", b: 1.5 }, exactNumbers: 0 });
  // A candidate that turns out exact stays a plain number.
  expect(parseJsonCounting('{"a":1e3,"b":1000000000000000}')).toEqual({ value: { a: 1000, b: 1e15 }, exactNumbers: 0 });
});

test("invalid JSON throws JSON.parse's SyntaxError, on the exact path too", () => {
  expect(() => parseJson('{"a":9007199254740993,}')).toThrow(SyntaxError);
  expect(() => parseJson("{")).toThrow(SyntaxError);
});

test("jsonText writes ExactNumbers as their text without JSON.rawJSON too", () => {
  const value = parseJson(SENT);
  expect(jsonText(value)).toBe(SENT);
  expect(write(value)).toBe(SENT);
  expect(write({ a: undefined, b: [undefined], c: "\u2028" })).toBe(JSON.stringify({ a: undefined, b: [undefined], c: "\u2028" }));
  expect(write(undefined)).toBeUndefined();
});

test("asDoubles: the nearest doubles, for code that knows only numbers; a value without ExactNumbers is returned as is", () => {
  const value = parseJson(SENT) as Record<string, unknown>;
  expect(asDoubles(value)).toEqual({ ...JSON.parse(SENT) });
  expect((asDoubles(value) as Record<string, unknown>).plain).toBe(value.plain);
  const plain = { a: [1, { b: "x" }] };
  expect(asDoubles(plain)).toBe(plain);
  expect(Object.keys(asDoubles(parseJson('{"__proto__":1e400}')) as object)).toEqual(["__proto__"]);
});

test("a value holding an ExactNumber refuses structured cloning instead of losing its digits", () => {
  expect(() => structuredClone(parseJson("[9007199254740993]"))).toThrow();
  expect(structuredClone(parseJson("[9007199254740992]"))).toEqual([9007199254740992]);
});
