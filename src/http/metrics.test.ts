import { expect, test } from "bun:test";
import { checkPoolGauges } from "./check_pool_metrics.ts";
import { instanceCounter, Metrics } from "./metrics.ts";

test("requests by trigger, outcome and status; latency histograms; per-trigger gauges and counters", () => {
  const metrics = new Metrics();
  metrics.observe("t1", "run", 200, 0.004);
  metrics.observe("t1", "auth_failed", 401, 0.001);
  const text = metrics.render({ inlet_triggers: 2 }, checkPoolGauges(new Map([["t1", { running: 1, waiting: 3, failed: 7, refused: 2, overloaded: 4 }]])));
  expect(text).toContain('inlet_webhook_requests_total{trigger="t1",outcome="run",status="200"} 1');
  expect(text).toContain('inlet_webhook_duration_seconds_count{trigger="t1"} 2');
  expect(text).toContain("inlet_triggers 2");
  expect(text).toContain('inlet_precheck_waiting{trigger="t1"} 3');
  expect(text).toContain("# TYPE inlet_precheck_failed_total counter");
  expect(text).toContain('inlet_precheck_refused_total{trigger="t1"} 2');
  expect(text).toContain('inlet_precheck_overloaded_total{trigger="t1"} 4');
});

test("failed authentications by trigger and mode: refused (enforce) or accepted while only reporting (report)", () => {
  const metrics = new Metrics();
  metrics.observeAuthFailure("t1", "report");
  metrics.observeAuthFailure("t1", "report");
  metrics.observeAuthFailure("t1", "enforce");
  const text = metrics.render();
  expect(text).toContain("# TYPE inlet_auth_failures_total counter");
  expect(text).toContain('inlet_auth_failures_total{trigger="t1",mode="report"} 2');
  expect(text).toContain('inlet_auth_failures_total{trigger="t1",mode="enforce"} 1');
  metrics.forget("t1");
  expect(metrics.render()).not.toContain('inlet_auth_failures_total{trigger="t1"');
});

test("a counter of the whole instance is written without labels", () => {
  const text = new Metrics().render({}, [instanceCounter("inlet_config_reload_errors_total", "Config file changes refused.", 2)]);
  expect(text).toContain(
    "# HELP inlet_config_reload_errors_total Config file changes refused.\n# TYPE inlet_config_reload_errors_total counter\ninlet_config_reload_errors_total 2\n",
  );
});
