import type { Delivery } from "./delivery.ts";
import type { PreparedChecks } from "../checks/prepared.ts";

/**
 * PII Redaction: the body and the query with every matching field's value `"[REDACTED]"` (copies
 * where something matched; the same objects otherwise). The query's fields come from the sender
 * too (a GET request's query is its body), so `$trigger.query` never keeps what the body would
 * not. They are redacted one after the other, never as one `[body, query]` value: the pair would
 * add a nesting level, and a body nested to the limit would then be refused. The query's names
 * are almost always decided by then (by earlier deliveries or this body), so its call is usually
 * answered from the name cache without a sandbox round trip. When the sandbox cannot finish,
 * this throws and nothing is stored: the unredacted body never goes on.
 */
export async function applyRedaction(checks: PreparedChecks, delivery: Delivery): Promise<{ body: unknown; query: Delivery["query"] }> {
  const { body, query } = delivery;
  if (!checks.redact) return { body, query };
  const redactedBody = await checks.redact(body);
  if (Object.keys(query).length === 0) return { body: redactedBody, query };
  return { body: redactedBody, query: (await checks.redact(query)) as Delivery["query"] };
}
