import type { AlertRecord, AlertRule } from "../records/alert.ts";
import { REPORT_ONLY_AUTH_NOTE } from "../records/rollout.ts";

/**
 * The SQL of alerts, shared by both stores (`p(n)` writes the n-th parameter: `?` or `$n`).
 * Each measure is one indexed query over the trigger's Activity or runs.
 */
export function measureQuery(rule: AlertRule, triggerId: string, nowMs: number, p: (n: number) => string): { sql: string; params: Array<string | number> } {
  switch (rule.kind) {
    case "silence":
      // Accepted: answered 200 (a run, a duplicate, or filtered out).
      return {
        sql: `SELECT max(at_ms) AS v FROM activity WHERE trigger_id = ${p(1)} AND outcome IN ('run', 'deduplicated', 'filtered')`,
        params: [triggerId],
      };
    case "auth_failures":
      // Rows, each counting its requests: a flood's refusals past a minute's own rows are counted on
      // one row (at the first one's time), and the alert still sees every one of them. A request
      // that failed while the trigger's authentication only reports (README "Report-only rollout")
      // ended otherwise, with a detail that starts saying so: it counts too. Every outcome is
      // listed so that the (trigger_id, outcome, at_ms) index serves the window on both stores.
      return {
        sql: `SELECT coalesce(sum(count), 0) AS v FROM activity WHERE trigger_id = ${p(1)}
          AND outcome IN ('auth_failed', 'run', 'deduplicated', 'filtered', 'rejected', 'error') AND at_ms >= ${p(2)}
          AND (outcome = 'auth_failed' OR substr(detail, 1, ${REPORT_ONLY_AUTH_NOTE.length}) = ${p(3)})`,
        params: [triggerId, nowMs - rule.seconds * 1000, REPORT_ONLY_AUTH_NOTE],
      };
    case "run_failures":
      return {
        sql: `SELECT count(*) AS v FROM runs WHERE trigger_id = ${p(1)} AND status = 'failed' AND finished_at >= ${p(2)}`,
        params: [triggerId, new Date(nowMs - rule.seconds * 1000).toISOString()],
      };
    case "backlog":
      return { sql: `SELECT count(*) AS v FROM runs WHERE trigger_id = ${p(1)} AND status IN ('queued', 'running')`, params: [triggerId] };
    case "destination_open":
      // Since when its longest-broken destination has been open (or half-open): null while none is.
      return { sql: `SELECT min(opened_at_ms) AS v FROM destination_state WHERE trigger_id = ${p(1)} AND breaker <> 'closed'`, params: [triggerId] };
  }
}

/**
 * An alert notification due at `now` (a parameter written twice: SQLite's `?` then takes the time
 * twice): undelivered, its next attempt come, not leased to anyone now.
 */
export const dueNotification = (now: string) => `delivered_at IS NULL AND next_ms <= ${now} AND (lease_until_ms IS NULL OR lease_until_ms < ${now})`;

/**
 * The measure from the query's `v`: silence is the seconds since the last accepted request (or
 * since the trigger was created); destination_open the seconds its longest-broken destination has been open.
 */
export function measureOf(rule: AlertRule, v: unknown, nowMs: number, createdAt: string): number {
  if (rule.kind === "destination_open") return v === null || v === undefined ? 0 : Math.max(0, Math.floor((nowMs - Number(v)) / 1000));
  if (rule.kind !== "silence") return Number(v ?? 0);
  const last = v === null || v === undefined ? Date.parse(createdAt) : Number(v);
  return Math.max(0, Math.floor((nowMs - last) / 1000));
}

export interface AlertRow {
  id: string;
  trigger_id: string;
  kind: AlertRecord["kind"];
  state: AlertRecord["state"];
  since: string;
  value: number;
  threshold: number;
  notified_at: string | null;
}

export const toAlert = (row: AlertRow): AlertRecord => ({
  id: row.id,
  triggerId: row.trigger_id,
  kind: row.kind,
  state: row.state,
  since: row.since,
  value: Number(row.value),
  threshold: Number(row.threshold),
  notifiedAt: row.notified_at,
});
