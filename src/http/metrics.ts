/** Prometheus text exposition of per-trigger outcome counters and a latency histogram. */

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

const label = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

/** A gauge with one value per trigger, read when `/metrics` is scraped. */
export interface PerTriggerGauge {
  name: string;
  help: string;
  /** Default gauge. */
  type?: "gauge" | "counter";
  /** Series with more labels than the trigger (e.g. `{trigger, kind}`), besides `values`. */
  series?: Array<{ labels: Record<string, string>; value: number }>;
  values: Record<string, number>;
}

/** One trigger's series: requests by outcome, then status; its latency histogram. */
interface TriggerSeries {
  outcomes: Map<string, Map<number, number>>;
  latency: Histogram;
}

/** How a trigger's authentication treated a request that failed it: refused, or accepted while it only reports. */
export type AuthFailureMode = "enforce" | "report";

export class Metrics {
  /** By trigger id: looked up by the names as they come, no key string built per request. */
  private readonly series = new Map<string, TriggerSeries>();
  /** Failed authentications by trigger id, then mode (README "Report-only rollout"). */
  private readonly authFailures = new Map<string, Map<AuthFailureMode, number>>();

  /** Records one webhook request. `triggerId` is "unknown" for unmatched tokens. */
  observe(triggerId: string, outcome: string, status: number, seconds: number): void {
    let series = this.series.get(triggerId);
    if (!series) {
      series = { outcomes: new Map(), latency: { counts: new Array(BUCKETS.length).fill(0), sum: 0, count: 0 } };
      this.series.set(triggerId, series);
    }
    let byStatus = series.outcomes.get(outcome);
    if (!byStatus) {
      byStatus = new Map();
      series.outcomes.set(outcome, byStatus);
    }
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    const h = series.latency;
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]) h.counts[i]++;
    h.sum += seconds;
    h.count++;
  }

  /** Counts one request that failed authentication. */
  observeAuthFailure(triggerId: string, mode: AuthFailureMode): void {
    let byMode = this.authFailures.get(triggerId);
    if (!byMode) {
      byMode = new Map();
      this.authFailures.set(triggerId, byMode);
    }
    byMode.set(mode, (byMode.get(mode) ?? 0) + 1);
  }

  /** Forgets a deleted trigger's series. */
  forget(triggerId: string): void {
    this.series.delete(triggerId);
    this.authFailures.delete(triggerId);
  }

  render(extra: Record<string, number> = {}, perTrigger: PerTriggerGauge[] = []): string {
    const lines: string[] = [
      "# HELP inlet_webhook_requests_total Webhook requests by trigger, outcome and status.",
      "# TYPE inlet_webhook_requests_total counter",
    ];
    for (const [trigger, { outcomes }] of this.series) {
      for (const [outcome, byStatus] of outcomes) {
        for (const [status, value] of byStatus) {
          lines.push(`inlet_webhook_requests_total{trigger="${label(trigger)}",outcome="${label(outcome)}",status="${status}"} ${value}`);
        }
      }
    }
    lines.push("# HELP inlet_webhook_duration_seconds Time from request to response, by trigger.", "# TYPE inlet_webhook_duration_seconds histogram");
    for (const [trigger, { latency: h }] of this.series) {
      const t = label(trigger);
      BUCKETS.forEach((le, i) => lines.push(`inlet_webhook_duration_seconds_bucket{trigger="${t}",le="${le}"} ${h.counts[i]}`));
      lines.push(`inlet_webhook_duration_seconds_bucket{trigger="${t}",le="+Inf"} ${h.count}`);
      lines.push(`inlet_webhook_duration_seconds_sum{trigger="${t}"} ${h.sum}`);
      lines.push(`inlet_webhook_duration_seconds_count{trigger="${t}"} ${h.count}`);
    }
    lines.push(
      "# HELP inlet_auth_failures_total Webhook requests that failed authentication, by trigger and mode: enforce (refused, 401) or report (accepted while the trigger's authentication only reports).",
      "# TYPE inlet_auth_failures_total counter",
    );
    for (const [trigger, byMode] of this.authFailures) {
      for (const [mode, value] of byMode) lines.push(`inlet_auth_failures_total{trigger="${label(trigger)}",mode="${mode}"} ${value}`);
    }
    for (const [name, value] of Object.entries(extra)) lines.push(`# TYPE ${name} gauge`, `${name} ${value}`);
    for (const gauge of perTrigger) {
      lines.push(`# HELP ${gauge.name} ${gauge.help}`, `# TYPE ${gauge.name} ${gauge.type ?? "gauge"}`);
      for (const [trigger, value] of Object.entries(gauge.values)) lines.push(`${gauge.name}{trigger="${label(trigger)}"} ${value}`);
      for (const { labels, value } of gauge.series ?? []) {
        const pairs = Object.entries(labels).map(([k, v]) => `${k}="${label(v)}"`);
        // A series of the whole instance (no labels) is written bare: `inlet_config_reload_errors_total 2`.
        lines.push(`${gauge.name}${pairs.length > 0 ? `{${pairs.join(",")}}` : ""} ${value}`);
      }
    }
    return lines.join("\n") + "\n";
  }
}

/**
 * `inlet_trigger_info{trigger,name[,app]} 1` per trigger. Series are keyed by trigger id, which a
 * rename keeps; dashboards join this one on `trigger` to show names.
 */
export function triggerInfo(triggers: ReadonlyArray<{ id: string; name: string; app: string | null }>): PerTriggerGauge {
  return {
    name: "inlet_trigger_info",
    help: "1 per trigger, with its name (and app, for app triggers): join on trigger to label series by name.",
    values: {},
    series: triggers.map((t) => ({ labels: { trigger: t.id, name: t.name, ...(t.app ? { app: t.app } : {}) }, value: 1 })),
  };
}

/** A counter of the whole instance (no labels), e.g. `inlet_config_reload_errors_total`. */
export function instanceCounter(name: string, help: string, value: number): PerTriggerGauge {
  return { name, help, type: "counter", values: {}, series: [{ labels: {}, value }] };
}
