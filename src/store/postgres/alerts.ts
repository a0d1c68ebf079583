import type { AlertNotification, AlertRecord, AlertRule, AlertState } from "../../records/alert.ts";
import { dueNotification, measureOf, measureQuery, toAlert, type AlertRow } from "../alert_sql.ts";
import type { AlertStore } from "../alert_store.ts";
import type { PostgresConnection } from "./connection.ts";

/** Alerts and their notification outbox on PostgreSQL, shared by instances evaluating together. */
export class PostgresAlerts implements AlertStore {
  constructor(private readonly connection: PostgresConnection) {}

  measureAlert(triggerId: string, rule: AlertRule, now: Date, createdAt: string): Promise<number> {
    return this.connection.guard(async (sql) => {
      const { sql: text, params } = measureQuery(rule, triggerId, now.getTime(), (n) => `$${n}`);
      const [row] = await sql.unsafe(text, params);
      return measureOf(rule, row?.v ?? null, now.getTime(), createdAt);
    });
  }

  listAlerts(): Promise<AlertRecord[]> {
    return this.connection.guard(async (sql) => ((await sql`SELECT * FROM alerts ORDER BY trigger_id, id`) as AlertRow[]).map(toAlert));
  }

  transitionAlert(next: AlertRecord, from: AlertState | null, notification: { id: string; payload: string } | null): Promise<boolean> {
    return this.connection.guard((sql) =>
      sql.begin(async (tx) => {
        // A conditional write: of instances evaluating together, exactly one moves the alert.
        const moved =
          from === null
            ? await tx`INSERT INTO alerts (id, trigger_id, kind, state, since, value, threshold) VALUES (${next.id}, ${next.triggerId}, ${next.kind}, ${next.state}, ${next.since}, ${next.value}, ${next.threshold}) ON CONFLICT (id) DO NOTHING`
            : await tx`UPDATE alerts SET state = ${next.state}, since = ${next.since}, value = ${next.value}, threshold = ${next.threshold} WHERE id = ${next.id} AND state = ${from}`;
        if (moved.count === 0) return false;
        if (notification) {
          // An earlier transition's notification not yet delivered is superseded (see the SQLite store).
          await tx`DELETE FROM alert_outbox WHERE alert_id = ${next.id} AND delivered_at IS NULL`;
          await tx`INSERT INTO alert_outbox (id, alert_id, payload, next_ms) VALUES (${notification.id}, ${next.id}, ${notification.payload}, 0)`;
        }
        return true;
      }),
    );
  }

  dropAlerts(keep: (alertId: string) => boolean): Promise<void> {
    return this.connection.guard(async (sql) => {
      const gone = ((await sql`SELECT id FROM alerts`) as Array<{ id: string }>).map((r) => r.id).filter((id) => !keep(id));
      if (gone.length === 0) return;
      await sql`DELETE FROM alerts WHERE id = ANY(${sql.array(gone, "TEXT")})`;
      await sql`DELETE FROM alert_outbox WHERE delivered_at IS NULL AND alert_id = ANY(${sql.array(gone, "TEXT")})`;
    });
  }

  claimAlertNotifications(owner: string, limit: number, now: Date, leaseMs: number): Promise<AlertNotification[]> {
    return this.connection.guard(async (sql) => {
      const rows: Array<{ id: string; alert_id: string; payload: string; attempts: number }> = await sql.unsafe(
        `UPDATE alert_outbox SET lease_owner = $1, lease_until_ms = $2 WHERE seq IN (
           SELECT seq FROM alert_outbox WHERE ${dueNotification("$3")}
           ORDER BY seq LIMIT $4 FOR UPDATE SKIP LOCKED)
         RETURNING id, alert_id, payload, attempts`,
        [owner, now.getTime() + leaseMs, now.getTime(), limit],
      );
      return rows.map((row) => ({ id: row.id, alertId: row.alert_id, payload: row.payload, attempts: row.attempts }));
    });
  }

  settleAlertNotification(id: string, alertId: string, outcome: { deliveredAt: string } | { nextMs: number }): Promise<void> {
    return this.connection.guard(async (sql) => {
      if ("deliveredAt" in outcome) {
        await sql`UPDATE alert_outbox SET delivered_at = ${outcome.deliveredAt}, lease_owner = NULL, lease_until_ms = NULL WHERE id = ${id}`;
        // A notification a later transition superseded is gone: the alert's new state was not notified.
        await sql`UPDATE alerts SET notified_at = ${outcome.deliveredAt} WHERE id = ${alertId} AND EXISTS (SELECT 1 FROM alert_outbox WHERE id = ${id})`;
      } else {
        await sql`UPDATE alert_outbox SET attempts = attempts + 1, next_ms = ${outcome.nextMs}, lease_owner = NULL, lease_until_ms = NULL WHERE id = ${id}`;
      }
    });
  }
}
