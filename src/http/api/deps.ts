import type { ExpressionCheck } from "../../checks/api_check.ts";
import type { PluginRegistry } from "../../plugins/registry.ts";
import type { AlertRecord } from "../../records/alert.ts";
import type { Replay } from "../../replay/replay.ts";
import type { History } from "../../store/history.ts";
import type { TriggerService } from "../../triggers/service.ts";

/** What the management API's routes need from the composition root. */
export interface ApiDeps {
  triggers: TriggerService;
  store: History;
  plugins: PluginRegistry;
  adminTokenHash(): string;
  baseUrl(): string;
  check: ExpressionCheck;
  replay: Replay;
  onTriggerDeleted?(id: string): void;
  /** The largest request body a call reads (the largest body a trigger may allow: a check's sample, a schema). */
  maxBodyBytes: number;
  /** `GET /api/alerts`: the stored alerts with their measure now (the alert monitor's). */
  alerts(): Promise<AlertRecord[]>;
  /** Counts a refused admin token: the 429 to answer with once its address has failed too often, else null (see AdminAuthThrottle). */
  failedAuth?(request: Request): Response | null;
}
