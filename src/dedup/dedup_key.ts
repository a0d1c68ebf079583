import { sha256Hex } from "../auth/digest.ts";
import type { DedupConfig } from "../records/trigger.ts";
import { ExactNumber, numberText } from "../json/index.ts";
import { canonicalJson } from "./canonical_json.ts";

/** The well-known paths `event-id` reads, in order (docs/processing-order.md#deduplication). */
export const EVENT_ID_PATHS: ReadonlyArray<readonly string[]> = [
  ["event_id"],
  ["eventId"],
  ["event", "id"],
  ["meta", "event_id"],
  ["webhook_id"],
  ["delivery_id"],
  ["id"],
];

/** What a key strategy may read of a request. */
export interface KeyInput {
  headers: Headers;
  rawBody: Uint8Array;
  /**
   * The parsed body, or `undefined` when it does not parse. Asked for only by the strategies that
   * read it, so a body may be parsed (on a thread, for a large one) only when it is.
   */
  body(): unknown | Promise<unknown>;
}

function at(value: unknown, path: readonly string[]): unknown {
  let node = value;
  for (const key of path) {
    if (node === null || typeof node !== "object" || Array.isArray(node) || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The first string or number at a well-known event-id path (a number with all its digits), or `null`. */
export function eventIdOf(body: unknown): string | null {
  for (const path of EVENT_ID_PATHS) {
    const value = at(body, path);
    if (typeof value === "string" && value !== "") return value;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
    if (value instanceof ExactNumber) return numberText(value);
  }
  return null;
}

/** Evaluates the expression strategy's query (in the sandbox) and returns the selected values. */
export type KeySelector = (body: unknown) => unknown[] | Promise<unknown[]>;

/**
 * The dedup key of a request under a generic trigger's strategy, hashed (keys are stored only as
 * SHA-256), or `null` when the request carries none (no dedup for it).
 */
export async function dedupKeyHash(dedup: DedupConfig, input: KeyInput, select?: KeySelector): Promise<string | null> {
  let key: string | null = null;
  switch (dedup.strategy) {
    case "event-id": {
      const id = eventIdOf(await input.body());
      key = id === null ? null : id;
      break;
    }
    case "payload-hash":
      key = sha256Hex(input.rawBody);
      break;
    case "header-value":
      // An empty value is no key, like an absent header: it would make every such request one duplicate.
      key = (dedup.headerName && input.headers.get(dedup.headerName)) || null;
      break;
    case "expression": {
      const body = await input.body();
      if (body === undefined || !select) break;
      const values = await select(body);
      key = values.length === 0 ? null : canonicalJson(values.length === 1 ? values[0] : values);
      break;
    }
    default:
      return null;
  }
  return key === null ? null : sha256Hex(`${dedup.strategy}\u0000${key}`);
}

/** An app trigger's key: the provider's delivery id, or else the exact body's hash. */
export function appDedupKeyHash(deliveryId: string | null, rawBody: Uint8Array): { hash: string; byContent: boolean } {
  if (deliveryId !== null && deliveryId !== "") return { hash: sha256Hex(`delivery\u0000${deliveryId}`), byContent: false };
  return { hash: sha256Hex(`content\u0000${sha256Hex(rawBody)}`), byContent: true };
}
