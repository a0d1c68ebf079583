import { Elysia } from "elysia";
import { UNAVAILABLE_RETRY_AFTER } from "../net/answers.ts";
import type { History } from "../store/history.ts";
import type { Maintenance } from "../store/maintenance.ts";
import type { Metrics, PerTriggerGauge } from "./metrics.ts";
import type { MetricsGuard } from "./metrics_access.ts";

/**
 * `/healthz` (process up), `/readyz` (store reachable): open to load balancers. `/metrics`
 * (Prometheus): open too unless `guard` refuses the request (see `metricsGuard`).
 */
export function healthRoutes(
  store: Pick<Maintenance, "ping"> & Pick<History, "runsWaitingOnKey">,
  metrics: Metrics,
  gauges: () => Record<string, number>,
  more: () => PerTriggerGauge[] = () => [],
  guard: MetricsGuard = () => null,
) {
  const perTrigger = async (): Promise<PerTriggerGauge[]> => [
    ...more(),
    {
      name: "inlet_runs_waiting_on_key",
      help: "Queued runs waiting behind an earlier run of the same ordering key (queued, running or retrying).",
      values: await store.runsWaitingOnKey().catch(() => ({})),
    },
  ];
  const plain = (status: number, text: string, headers: Record<string, string> = {}) =>
    new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });
  return new Elysia({ name: "inlet-health" })
    .get("/healthz", () => plain(200, "ok\n"))
    .get("/readyz", async () => ((await store.ping()) ? plain(200, "ready\n") : plain(503, "store unreachable\n", { "Retry-After": UNAVAILABLE_RETRY_AFTER })))
    .get(
      "/metrics",
      async ({ request }) =>
        guard(request) ?? plain(200, metrics.render(gauges(), await perTrigger()), { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" }),
    );
}
