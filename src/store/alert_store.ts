import type { AlertNotification, AlertRecord, AlertRule, AlertState } from "../records/alert.ts";

/** The alert monitor's part of the store: rule measures, alert states and their notification outbox. */
export interface AlertStore {
  /** An alert rule's measure now (README "Alerts"): silence in seconds, or a count. */
  measureAlert(triggerId: string, rule: AlertRule, now: Date, createdAt: string): Promise<number>;
  listAlerts(): Promise<AlertRecord[]>;
  /**
   * Moves an alert from `from` (null: not recorded yet) to `next.state`, and queues its
   * notification, in one transaction; false when the alert was not in `from` any more (another
   * instance moved it first): each transition is recorded, and notified, exactly once. The
   * alert's notifications not yet delivered are dropped with it: superseded (retried until delivered
   * or the alert changes again: docs/store.md#alerts-in-the-store).
   */
  transitionAlert(next: AlertRecord, from: AlertState | null, notification: { id: string; payload: string } | null): Promise<boolean>;
  /** Removes alerts whose trigger or rule is gone (and their undelivered notifications). */
  dropAlerts(keep: (alertId: string) => boolean): Promise<void>;
  /** Claims up to `limit` notifications due at `now` for `owner` (others are skipped, not waited for). */
  claimAlertNotifications(owner: string, limit: number, now: Date, leaseMs: number): Promise<AlertNotification[]>;
  /** Marks a notification delivered (and its alert notified), or schedules its next attempt. */
  settleAlertNotification(id: string, alertId: string, outcome: { deliveredAt: string } | { nextMs: number }): Promise<void>;
}
