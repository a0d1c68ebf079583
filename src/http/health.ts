import { Elysia } from "elysia";
import type { Store } from "../store/store.ts";
import type { Metrics, PerTriggerGauge } from "./metrics.ts";

/** `/healthz` (process up), `/readyz` (store reachable), `/metrics` (Prometheus). */
export function healthRoutes(store: Store, metrics: Metrics, gauges: () => Record<string, number>, more: () => PerTriggerGauge[] = () => []) {
  const perTrigger = async (): Promise<PerTriggerGauge[]> => [
    ...more(),
    {
      name: "inlet_runs_waiting_on_key",
      help: "Queued runs waiting behind an earlier run of the same ordering key (queued, running or retrying).",
      values: await store.runsWaitingOnKey().catch(() => ({})),
    },
  ];
  const plain = (status: number, text: string, type = "text/plain; charset=utf-8") => new Response(text, { status, headers: { "Content-Type": type } });
  return new Elysia({ name: "inlet-health" })
    .get("/healthz", () => plain(200, "ok\n"))
    .get("/readyz", async () => ((await store.ping()) ? plain(200, "ready\n") : plain(503, "store unreachable\n")))
    .get("/metrics", async () => plain(200, metrics.render(gauges(), await perTrigger()), "text/plain; version=0.0.4; charset=utf-8"));
}
