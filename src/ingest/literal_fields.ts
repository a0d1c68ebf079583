/**
 * Names from a request — form fields, query parameters, header names — kept literally in an
 * object: `__proto__`, `constructor`, `toString` become own properties like any other name, and
 * no prototype is read or touched (plain `obj[name] = v` would set the prototype for `__proto__`,
 * and reading `obj.constructor` finds Object's).
 *
 * @example
 * ```ts
 * const out = {};
 * addField(out, "__proto__", "a");
 * addField(out, "constructor", "b");
 * addField(out, "constructor", "c");
 * JSON.stringify(out); // '{"__proto__":"a","constructor":["b","c"]}'
 * ```
 */
export function addField<T>(out: Record<string, T | T[]>, name: string, value: T): void {
  if (!Object.hasOwn(out, name)) {
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    return;
  }
  const existing = out[name];
  if (Array.isArray(existing)) (existing as T[]).push(value);
  else Object.defineProperty(out, name, { value: [existing, value], enumerable: true, writable: true, configurable: true });
}

/** Query or form fields as an object; a repeated field becomes an array of its real values. */
export function fieldsOf(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of params) addField(out, key, value);
  return out;
}

/**
 * `$trigger.query`: the query string's fields (`query` with its `?`, or ""), but those whose
 * lower-cased name is hidden: a credential carried in the URL (Azure Event Grid's `?code=`).
 *
 * @example
 * ```ts
 * queryObject("?code=s3cret&topic=a", new Set(["code"])); // { topic: "a" }
 * ```
 */
export function queryObject(query: string, hidden: ReadonlySet<string>): Record<string, string | string[]> {
  if (query === "") return {};
  const params = new URLSearchParams(query);
  if (hidden.size > 0) for (const name of [...params.keys()]) if (hidden.has(name.toLowerCase())) params.delete(name);
  return fieldsOf(params);
}

/**
 * `$trigger.headers`: every header but the hidden (credential) ones, names as received (lower-case),
 * in the order `Headers` iterates them: sorted, so the same headers always make the same object
 * whatever order a sender wrote them in. (`Headers.toJSON` would be ~0.3 µs cheaper, but lists
 * Bun's well-known headers first and the others in arrival order.) A repeated `Set-Cookie` is a
 * string like every other: its last value.
 */
export function headersObject(headers: Headers, hidden: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (!hidden.has(name)) Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
