/** The JSON shapes of the management API (CONTRACT §3) as the panel reads them. */

export type AuthType = "none" | "bearer" | "header" | "hmac-sha256" | "hmac-sha512";
export type DedupStrategy = "disabled" | "event-id" | "payload-hash" | "header-value" | "expression";
export type Method = "GET" | "POST";

export interface Trigger {
  id: string;
  token: string;
  url: string;
  curl: string;
  name: string;
  app: string | null;
  methods: Method[];
  auth: { type: AuthType; headerName?: string; signatureHeader?: string; encoding?: "hex" | "base64"; hasSecret: boolean };
  dedup: { strategy: DedupStrategy; headerName?: string; expression?: string; windowSeconds?: number };
  filter: { enabled: boolean; mode?: "include" | "exclude"; expression?: string };
  redaction: { enabled: boolean; patterns?: string[] };
  response: { mode: "immediate" | "workflow"; timeoutMs?: number };
  workflow: { kind: string; [key: string]: unknown };
  schema: { enabled: boolean; document?: unknown };
  maxBodyBytes: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface Plugin {
  id: string;
  name: string;
  secret: { label: string; generated: boolean };
}

export type ActivityOutcome = "run" | "deduplicated" | "filtered" | "auth_failed" | "rejected" | "error";

export interface ActivityRow {
  id: string;
  at: string;
  requestId: string;
  outcome: ActivityOutcome;
  label: string;
  runId: string | null;
  detail: string | null;
}

export interface Run {
  id: string;
  triggerId: string;
  requestId: string;
  status: "queued" | "running" | "succeeded" | "failed";
  trigger?: { body?: unknown; [key: string]: unknown };
  result: unknown;
  attempts: number;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** The run or Activity row this run replays, else null. */
  replayOf: string | null;
  /** The value of the trigger's ordering key this run waits on, else null. */
  orderingKey?: string | null;
}

/** `POST /api/triggers/:id/replay`. */
export interface BulkReplayResult {
  matched: number;
  replayed: number;
  runIds: string[];
}

export interface ValidationDetail {
  path: string;
  message: string;
}
