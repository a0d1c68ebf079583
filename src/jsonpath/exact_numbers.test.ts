import { expect, test } from "bun:test";
import { ExactNumber, parseJson } from "../json/index.ts";
import { evaluateFilter, evaluateQuery, parseFilter, parseQuery, prune } from "./index.ts";

const body = parseJson('{"id":9007199254740993,"other":9007199254740992,"huge":1e400,"long":0.1000000000000000055511151231257827,"small":3}');
const holds = (filter: string, document: unknown = body) => evaluateFilter(parseFilter(filter), document);

test("a comparison with an integer beyond 2^53 uses its exact digits", () => {
  expect(holds("$.id == 9007199254740993")).toBe(true);
  expect(holds("$.id == 9007199254740992")).toBe(false);
  expect(holds("$.other == 9007199254740993")).toBe(false);
  expect(holds("$.other == 9007199254740992")).toBe(true);
  expect(holds("$.id != $.other")).toBe(true);
  expect(holds("$.id > $.other && $.other < $.id")).toBe(true);
  expect(holds("$.id >= 9007199254740993 && $.id <= 9007199254740993.0")).toBe(true);
  expect(holds("$.id > 9007199254740992.5")).toBe(true);
  expect(holds("$.id < 9007199254740994")).toBe(true);
  expect(holds("$.small < $.id")).toBe(true);
  expect(holds("$[?@ == 9007199254740993]", parseJson("[9007199254740992, 9007199254740993]"))).toBe(true);
  expect(evaluateQuery(parseQuery("$[?@ > 9007199254740992]"), parseJson("[9007199254740992, 9007199254740993, 1]")).map((n) => n.path)).toEqual(["$[1]"]);
});

test("values beyond a double's range or precision compare by value, not as the nearest double", () => {
  expect(holds("$.huge > 1e308")).toBe(true);
  expect(holds("$.huge == 1e400")).toBe(true);
  expect(holds("$.huge == 1e401")).toBe(false);
  expect(holds("$.long == 0.1")).toBe(false);
  expect(holds("$.long > 0.1")).toBe(true);
  expect(holds("$.long == 0.1000000000000000055511151231257827")).toBe(true);
  expect(holds('$.id == "9007199254740993"')).toBe(false);
  expect(holds("$.id == $.id")).toBe(true);
  expect(holds('$.id < "a"')).toBe(false);
});

test("an exact number is a number, not an object: no members, no length, kept whole by pruning", () => {
  expect(evaluateQuery(parseQuery("$.id.*"), body)).toEqual([]);
  expect(evaluateQuery(parseQuery("$.id.text"), body)).toEqual([]);
  expect(evaluateQuery(parseQuery("$..*"), body).map((n) => n.path)).toEqual(["$['id']", "$['other']", "$['huge']", "$['long']", "$['small']"]);
  expect(holds("length($.id) == 1")).toBe(false);
  expect(holds("$.id.text")).toBe(false);
  const kept = prune(parseFilter("$.id.text == 1 || $.id == 2"), body) as Record<string, unknown>;
  expect(kept.id).toBeInstanceOf(ExactNumber);
  expect(evaluateQuery(parseQuery("$.id"), body)[0].value).toEqual(new ExactNumber("9007199254740993"));
});
