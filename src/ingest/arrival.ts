import type { TriggerRecord } from "../records/trigger.ts";

/**
 * A request to `/webhooks/<token>` whose trigger is known: what every stage before
 * authentication may read. Nothing in it has been verified yet.
 */
export interface Arrival {
  readonly trigger: TriggerRecord;
  readonly requestId: string;
  /** When the request arrived: timestamps, windows and `receivedAt` all use this one instant. */
  readonly now: Date;
  /** Upper-case. */
  readonly method: string;
  readonly headers: Headers;
  /** The query string with its `?`, or "". */
  readonly query: string;
  readonly request: Request;
}
