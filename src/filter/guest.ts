// Runs inside QuickJS (bundled by `bundleGuest`): the JSONPath engine evaluates there, so the
// regexes of match()/search() never run on the host engine.
import { evaluateFilter, evaluateQuery, parseFilter, parseQuery, type Filter, type Query } from "../jsonpath/index.ts";
import { jsonText, parseJsonExactly } from "../json/index.ts";

function compileFilter(sourceJson: string): Filter {
  return parseFilter(JSON.parse(sourceJson) as string);
}

function compileQuery(sourceJson: string): Query {
  return parseQuery(JSON.parse(sourceJson) as string);
}

/** "1" when the filter holds for the document (JSON text), else "0". */
function filter(compiled: Filter, documentJson: string): string {
  return evaluateFilter(compiled, JSON.parse(documentJson)) ? "1" : "0";
}

/** The values of the nodes the query selects, as a JSON array. */
function query(compiled: Query, documentJson: string): string {
  const nodes = evaluateQuery(compiled, JSON.parse(documentJson));
  return JSON.stringify(nodes.map((node) => node.value));
}

// The same for a document that may hold numbers a double cannot hold (README "Payload rules"):
// read and written so that they stay exact. The host tells which (its scan is many times faster
// than QuickJS's), so ordinary documents pay nothing here.

function filterExact(compiled: Filter, documentJson: string): string {
  return evaluateFilter(compiled, parseJsonExactly(documentJson).value) ? "1" : "0";
}

function queryExact(compiled: Query, documentJson: string): string {
  const nodes = evaluateQuery(compiled, parseJsonExactly(documentJson).value);
  return jsonText(nodes.map((node) => node.value))!;
}

(globalThis as unknown as Record<string, unknown>).inletJsonPath = { compileFilter, compileQuery, filter, query, filterExact, queryExact };
