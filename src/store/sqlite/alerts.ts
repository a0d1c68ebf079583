import type { Statement } from "bun:sqlite";
import type { AlertNotification, AlertRecord, AlertRule, AlertState } from "../../records/alert.ts";
import { dueNotification, measureOf, measureQuery, toAlert, type AlertRow } from "../alert_sql.ts";
import type { AlertStore } from "../alert_store.ts";
import type { SqliteConnection } from "./connection.ts";

/** Alerts and their notification outbox on SQLite. */
export class SqliteAlerts implements AlertStore {
  private readonly due: Statement;
  private readonly claimNotifications: Statement;

  constructor(private readonly connection: SqliteConnection) {
    this.due = connection.prepare(`SELECT 1 FROM alert_outbox WHERE ${dueNotification("?")} LIMIT 1`);
    this.claimNotifications = connection.prepare(
      `UPDATE alert_outbox SET lease_owner = ?, lease_until_ms = ? WHERE seq IN (SELECT seq FROM alert_outbox WHERE ${dueNotification("?")} ORDER BY seq LIMIT ?)
         RETURNING id, alert_id, payload, attempts`,
    );
  }

  private get db() {
    return this.connection.db;
  }

  measureAlert(triggerId: string, rule: AlertRule, now: Date, createdAt: string): Promise<number> {
    return this.connection.guard(() => {
      const { sql, params } = measureQuery(rule, triggerId, now.getTime(), () => "?");
      const row = this.db.query<{ v: unknown }, Array<string | number>>(sql).get(...params);
      return measureOf(rule, row?.v ?? null, now.getTime(), createdAt);
    });
  }

  listAlerts(): Promise<AlertRecord[]> {
    return this.connection.guard(() => this.db.query<AlertRow, []>("SELECT * FROM alerts ORDER BY trigger_id, id").all().map(toAlert));
  }

  transitionAlert(next: AlertRecord, from: AlertState | null, notification: { id: string; payload: string } | null): Promise<boolean> {
    return this.connection.write(() =>
      this.db.transaction(() => {
        const moved =
          from === null
            ? this.db.run(
                "INSERT INTO alerts (id, trigger_id, kind, state, since, value, threshold, notified_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL) ON CONFLICT (id) DO NOTHING",
                [next.id, next.triggerId, next.kind, next.state, next.since, next.value, next.threshold],
              ).changes
            : this.db.run("UPDATE alerts SET state = ?, since = ?, value = ?, threshold = ? WHERE id = ? AND state = ?", [
                next.state,
                next.since,
                next.value,
                next.threshold,
                next.id,
                from,
              ]).changes;
        if (moved === 0) return false;
        if (notification) {
          // An earlier transition's notification not yet delivered is superseded: sent after this one, it
          // would leave the destination with the wrong state. One being sent right now goes too: its
          // settle then finds no row and marks nothing notified.
          this.db.run("DELETE FROM alert_outbox WHERE alert_id = ? AND delivered_at IS NULL", [next.id]);
          this.db.run("INSERT INTO alert_outbox (id, alert_id, payload, next_ms) VALUES (?, ?, ?, 0)", [notification.id, next.id, notification.payload]);
        }
        return true;
      })(),
    );
  }

  dropAlerts(keep: (alertId: string) => boolean): Promise<void> {
    return this.connection.write(() => {
      for (const { id } of this.db.query<{ id: string }, []>("SELECT id FROM alerts").all()) {
        if (keep(id)) continue;
        this.db.run("DELETE FROM alerts WHERE id = ?", [id]);
        this.db.run("DELETE FROM alert_outbox WHERE alert_id = ? AND delivered_at IS NULL", [id]);
      }
    });
  }

  claimAlertNotifications(owner: string, limit: number, now: Date, leaseMs: number): Promise<AlertNotification[]> {
    const t = now.getTime();
    // Asked every second: when nothing is due (nearly always) it is a read, not a commit and a flush.
    return this.connection
      .guard(() => this.due.get(t, t) === null)
      .then((idle) =>
        idle
          ? []
          : this.connection.write(() =>
              (this.claimNotifications.all(owner, t + leaseMs, t, t, limit) as Array<{ id: string; alert_id: string; payload: string; attempts: number }>).map(
                (row) => ({
                  id: row.id,
                  alertId: row.alert_id,
                  payload: row.payload,
                  attempts: row.attempts,
                }),
              ),
            ),
      );
  }

  settleAlertNotification(id: string, alertId: string, outcome: { deliveredAt: string } | { nextMs: number }): Promise<void> {
    return this.connection.write(() => {
      if ("deliveredAt" in outcome) {
        this.db.run("UPDATE alert_outbox SET delivered_at = ?, lease_owner = NULL, lease_until_ms = NULL WHERE id = ?", [outcome.deliveredAt, id]);
        // A notification a later transition superseded is gone: the alert's new state was not notified.
        this.db.run("UPDATE alerts SET notified_at = ? WHERE id = ? AND EXISTS (SELECT 1 FROM alert_outbox WHERE id = ?)", [outcome.deliveredAt, alertId, id]);
      } else {
        this.db.run("UPDATE alert_outbox SET attempts = attempts + 1, next_ms = ?, lease_owner = NULL, lease_until_ms = NULL WHERE id = ?", [
          outcome.nextMs,
          id,
        ]);
      }
    });
  }
}
