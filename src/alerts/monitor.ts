import { ruleKey, thresholdOf, type AlertRecord, type AlertState } from "../records/alert.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import type { AlertStore } from "../store/alert_store.ts";
import { pluginContext } from "../plugins/context.ts";
import { standardWebhooksRecipe } from "../plugins/standard_webhooks.ts";
import { every, type Repeating } from "../lifecycle/every.ts";
import { alertText } from "./alert_text.ts";

export interface AlertMonitorOptions {
  store: AlertStore;
  triggers: { list(): TriggerRecord[] };
  /** Where notifications are POSTed (`--alert-url`); without it transitions are recorded, not sent. */
  url?: string;
  /** Standard Webhooks secret (`--alert-secret`); without it notifications are unsigned. */
  secret?: string;
  /** How often rules are evaluated (at least every 5 s: docs/api.md#alerts). */
  intervalMs: number;
  owner: string;
  log: (level: "info" | "warn" | "error", message: string, fields?: Record<string, unknown>) => void;
  now?: () => Date;
}

const DELIVERY_LEASE_MS = 30_000;
/** How long one notification may take to be sent. */
const SEND_TIMEOUT_MS = 5000;
/** Notifications claimed at once: all of them sent, one after the other, within their lease (else another instance could claim and send them again). */
const CLAIM_AT_ONCE = DELIVERY_LEASE_MS / SEND_TIMEOUT_MS - 1;
const MAX_BACKOFF_MS = 5 * 60_000;

/** Notifications are sent the way inlet receives Standard Webhooks: one recipe signs both. */
const standardWebhooks = standardWebhooksRecipe({ prefixes: ["webhook-"], secret: "standard" });

/** `webhook-id` (the notification's id, the same on every retry), `webhook-timestamp` (now) and `webhook-signature`. */
async function signed(secret: string, id: string, payload: string): Promise<Record<string, string>> {
  const request = { method: "POST", url: "", headers: new Headers({ "webhook-id": id }), rawBody: new TextEncoder().encode(payload) };
  return (await standardWebhooks.sign(request, pluginContext(secret, new Date()))).headers ?? {};
}

/**
 * Alerts (docs/api.md#alerts): every rule of every trigger is a state machine ok → firing → ok,
 * evaluated every interval and kept in the store. A transition is recorded with a conditional
 * write and its notification queued in the same transaction, so with several instances each
 * transition is recorded, and notified, exactly once, and a restart repeats nothing. Queued
 * notifications are delivered apart from ingest, retried with backoff until delivered.
 */
/**
 * A firing silence ends when a request was accepted after it began, even if the rule's window is
 * shorter than the evaluation interval (the silence measured now may already exceed it again).
 * With no request since the firing began at `since`, the silence has grown by at least the time
 * since then, to more than `floor((now − since) / 1 s)`; a request at or after `since` makes it
 * at most that. The next silence fires again at a later evaluation.
 */
export function silenceBroken(kind: string, current: AlertRecord | undefined, silenceSeconds: number, now: Date): boolean {
  if (kind !== "silence" || current?.state !== "firing") return false;
  return silenceSeconds <= Math.floor((now.getTime() - Date.parse(current.since)) / 1000);
}

export class AlertMonitor {
  private firing = new Map<string, { triggerId: string; kind: string; firing: boolean }>();
  /** Each rule's measure at the last evaluation, by alert id. */
  private measured = new Map<string, number>();
  /** Rules evaluated every interval (and on demand), never two evaluations at once. */
  private readonly evaluation: Repeating;
  /**
   * Due notifications sent every second (and on demand): one asked for while one runs runs again
   * after it (it may have looked before a transition committed).
   */
  private readonly delivery: Repeating;

  constructor(private readonly o: AlertMonitorOptions) {
    this.evaluation = every(o.intervalMs, () => this.evaluateOnce(), {
      onError: (error) => o.log("warn", "alert evaluation failed", { error: String(error) }),
    });
    this.delivery = every(Math.min(1000, o.intervalMs), () => (o.url ? this.deliverDue() : undefined), {
      onError: (error) => o.log("warn", "alert delivery failed", { error: String(error) }),
    });
  }

  start(): void {
    void this.evaluate();
  }

  async stop(): Promise<void> {
    await Promise.all([this.evaluation.stop(), this.delivery.stop()]);
  }

  /**
   * The stored alerts with each rule's measure from this instance's last evaluation: the store
   * keeps the measure of the last transition (a silence's grows every second; writing it at each
   * evaluation would cost a commit per rule every few seconds, per instance).
   */
  async list(): Promise<AlertRecord[]> {
    return (await this.o.store.listAlerts()).map((alert) => ({ ...alert, value: this.measured.get(alert.id) ?? alert.value }));
  }

  /** `inlet_alert_firing{trigger,kind}` for /metrics. */
  series(): Array<{ labels: Record<string, string>; value: number }> {
    return [...this.firing.values()].map((a) => ({ labels: { trigger: a.triggerId, kind: a.kind }, value: a.firing ? 1 : 0 }));
  }

  /** Evaluates every rule now (or once more after the evaluation in progress). */
  evaluate(): Promise<void> {
    return this.evaluation.now();
  }

  private async evaluateOnce(): Promise<void> {
    const now = this.o.now?.() ?? new Date();
    const known = new Map((await this.o.store.listAlerts()).map((a) => [a.id, a]));
    const wanted = new Set<string>();
    const firing = new Map<string, { triggerId: string; kind: string; firing: boolean }>();
    const measured = new Map<string, number>();
    for (const trigger of this.o.triggers.list()) {
      for (const rule of trigger.alerts ?? []) {
        const id = `${trigger.id}/${ruleKey(rule)}`;
        wanted.add(id);
        const value = await this.o.store.measureAlert(trigger.id, rule, now, trigger.createdAt);
        const current = known.get(id);
        const state: AlertState = value >= thresholdOf(rule) && !silenceBroken(rule.kind, current, value, now) ? "firing" : "ok";
        // One series per {trigger, kind}: two rules of one kind are one gauge, 1 while either fires.
        const series = `${trigger.id}/${rule.kind}`;
        firing.set(series, { triggerId: trigger.id, kind: rule.kind, firing: state === "firing" || firing.get(series)?.firing === true });
        measured.set(id, value);
        // Seen by `list()` at once: a transition below is visible in the store as soon as it is
        // committed (before it is flushed), and must not be listed with the measure before it.
        this.measured.set(id, value);
        if (current?.state === state) continue;
        const next: AlertRecord = {
          id,
          triggerId: trigger.id,
          kind: rule.kind,
          state,
          since: now.toISOString(),
          value,
          threshold: thresholdOf(rule),
          notifiedAt: null,
        };
        // The first evaluation of a rule that is fine says nothing; every later change is notified.
        const notify = this.o.url && (current !== undefined || state === "firing");
        const payload = JSON.stringify({
          type: state === "firing" ? "alert.firing" : "alert.resolved",
          text: alertText(trigger.name, rule, state, value),
          alert: { id, triggerId: trigger.id, triggerName: trigger.name, kind: rule.kind, state, since: next.since, value, threshold: next.threshold },
        });
        const moved = await this.o.store.transitionAlert(next, current?.state ?? null, notify ? { id: `alert_${Bun.randomUUIDv7()}`, payload } : null);
        if (moved) this.o.log("info", `alert ${state}`, { alert: id, value, threshold: next.threshold });
      }
    }
    this.firing = firing;
    this.measured = measured;
    // Alerts whose rule or trigger is gone (a store write only when there are some).
    if ([...known.keys()].some((id) => !wanted.has(id))) await this.o.store.dropAlerts((id) => wanted.has(id));
    void this.deliver();
  }

  /** Sends the due notifications now (or once more after the delivery in progress). */
  deliver(): Promise<void> {
    if (!this.o.url) return Promise.resolve();
    return this.delivery.now();
  }

  private async deliverDue(): Promise<void> {
    const now = this.o.now?.() ?? new Date();
    for (const n of await this.o.store.claimAlertNotifications(this.o.owner, CLAIM_AT_ONCE, now, DELIVERY_LEASE_MS)) {
      let delivered = false;
      let reason = "";
      try {
        const headers = { "Content-Type": "application/json", ...(this.o.secret ? await signed(this.o.secret, n.id, n.payload) : {}) };
        const response = await fetch(this.o.url!, { method: "POST", body: n.payload, headers, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) });
        delivered = response.ok;
        reason = `status ${response.status}`;
      } catch (error) {
        reason = (error as Error)?.message || String(error);
      }
      if (delivered) await this.o.store.settleAlertNotification(n.id, n.alertId, { deliveredAt: new Date().toISOString() });
      else {
        const wait = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** n.attempts);
        this.o.log("warn", "alert notification not delivered; will retry", { notification: n.id, reason, retryInMs: wait });
        await this.o.store.settleAlertNotification(n.id, n.alertId, { nextMs: Date.now() + wait });
      }
    }
  }
}
