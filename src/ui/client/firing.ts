import { api } from "./api.ts";
import { h } from "./dom.ts";
import type { Alert } from "./types.ts";

/** Ids of the triggers with an alert rule firing now. */
export async function firingTriggers(): Promise<Set<string>> {
  const alerts = await api<Alert[]>("GET", "/api/alerts").catch(() => [] as Alert[]);
  return new Set(alerts.filter((a) => a.state === "firing").map((a) => a.triggerId));
}

/** The `Firing` badge shown beside a trigger's name while one of its alert rules fires. */
export const firingBadge = () => h("span", { class: "badge firing", title: "An alert rule of this trigger is firing (see Settings → Alerts)" }, "Firing");
