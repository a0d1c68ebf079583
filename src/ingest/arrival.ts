import type { TriggerRecord } from "../records/trigger.ts";
import type { ReportOnlyMarks } from "./report_only.ts";

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
  /**
   * What the checks that only report (README "Report-only rollout") found so far: the sources and
   * authentication stages fill it in as the request passes them; an enforcing check leaves its key out.
   */
  readonly reportOnly: ReportOnlyMarks;
}
