import type { Delivery } from "./delivery.ts";
import type { PreparedChecks } from "../checks/prepared_checks.ts";

/** What redaction hands on: the parts of `$trigger` that come from the sender. */
export type Redacted = Pick<Delivery, "body" | "query" | "headers">;

/**
 * PII Redaction: the body, the query and the headers with every matching field's value
 * `"[REDACTED]"` (copies where something matched; the same objects otherwise). The query's fields
 * come from the sender too (a GET request's query is its body), and so do the headers (an
 * `X-Customer-Email`), so `$trigger` never keeps in them what the body would not (README "PII
 * redaction"). Strings holding JSON are redacted inside (see `redact`): a text body, a form's
 * `payload` field. Each is redacted on its own, never as one `[body, query, headers]` value: that
 * would add a nesting level, and a body nested to the limit would then be refused. The names of
 * the query and the headers recur from delivery to delivery, so their calls are usually answered
 * from the name cache without a sandbox round trip. When the sandbox cannot finish, this throws
 * and nothing is stored: the unredacted request never goes on.
 */
export async function applyRedaction(checks: PreparedChecks, delivery: Delivery): Promise<Redacted> {
  const { body, query, headers } = delivery;
  const redact = checks.redact;
  if (!redact) return { body, query, headers };
  const fields = async <T extends object>(named: T): Promise<T> => (isEmpty(named) ? named : ((await redact(named)) as T));
  return { body: await redact(body), query: await fields(query), headers: await fields(headers) };
}

function isEmpty(fields: object): boolean {
  for (const _ in fields) return false;
  return true;
}
