import type { ReportOnlyMarks } from "./report_only.ts";
import type { DedupClaim } from "../records/ingest.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import type { AppInfo } from "./sender_protocol.ts";
import type { MultipartFile } from "./parse_multipart.ts";

/**
 * A request past authentication and deduplication, with its parsed body: what the rest of the
 * processing order (filter → redaction → run) works on. A live request becomes one in the
 * pipeline; a replay builds one from what was stored and enters the pipeline here.
 */
export interface Delivery {
  readonly trigger: TriggerRecord;
  /** The original request's id: a replay keeps it. */
  readonly requestId: string;
  /** When this delivery is processed: the run's `createdAt` and the Activity row's `at`. */
  readonly now: Date;
  /** `$trigger.receivedAt`: when the original request arrived. */
  readonly receivedAt: string;
  readonly method: string;
  /** `$trigger.headers`, credential headers already left out; not yet redacted. */
  readonly headers: Record<string, string>;
  /** `$trigger.query`; not yet redacted. */
  readonly query: Record<string, string | string[]>;
  /** The parsed body, not yet redacted. */
  readonly body: unknown;
  /** `$trigger.files`: a multipart body's file parts, described (their bytes are never kept); absent for other bodies. */
  readonly files?: MultipartFile[];
  /**
   * The body's JSON text as received, stored as is instead of serializing the body again; set
   * only where nothing can change the body or hide a field from it (the pipeline decides: a
   * generic trigger without redaction, a body that arrived as JSON), else null, and for replays.
   */
  readonly bodyJson: string | null;
  readonly app: AppInfo | null;
  /** The dedup key committed with this request's outcome; null when none (and for replays). */
  readonly claim: DedupClaim | null;
  /** The run or Activity row this delivery replays, else null; its Activity row says so. */
  readonly replayOf: string | null;
  /**
   * `$trigger.auth` / `$trigger.sources` where the trigger's check only reported (README
   * "Report-only rollout"); a live request that failed one has its Activity row say so.
   */
  readonly reportOnly?: ReportOnlyMarks;
}
