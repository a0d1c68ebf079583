// Runs inside QuickJS (bundled by `bundleGuest`): the JSONPath engine evaluates there, so the
// regexes of match()/search() never run on the host engine.
import { evaluateFilter, evaluateQuery, parseFilter, parseQuery, type Filter, type Query } from "../jsonpath/index.ts";
// The document crosses as JSON text with its numbers as sent: parsed and written so that they stay exact.
import { jsonText, parseJson } from "../json/index.ts";

function compileFilter(sourceJson: string): Filter {
  return parseFilter(JSON.parse(sourceJson) as string);
}

function compileQuery(sourceJson: string): Query {
  return parseQuery(JSON.parse(sourceJson) as string);
}

/** "1" when the filter holds for the document (JSON text), else "0". */
function filter(compiled: Filter, documentJson: string): string {
  return evaluateFilter(compiled, parseJson(documentJson)) ? "1" : "0";
}

/** The values of the nodes the query selects, as a JSON array. */
function query(compiled: Query, documentJson: string): string {
  const nodes = evaluateQuery(compiled, parseJson(documentJson));
  return jsonText(nodes.map((node) => node.value))!;
}

(globalThis as unknown as Record<string, unknown>).inletJsonPath = { compileFilter, compileQuery, filter, query };
