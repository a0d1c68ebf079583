import type { ExpressionCheck } from "../../checks/api_check.ts";
import type { PluginRegistry } from "../../plugins/registry.ts";
import type { AlertRecord } from "../../records/alert.ts";
import type { Replay } from "../../replay/replay.ts";
import type { TransformOutcome } from "../../runs/transform.ts";
import type { History } from "../../store/history.ts";
import type { DestinationStates } from "../../store/destination_states.ts";
import type { TriggerService } from "../../triggers/service.ts";

/** What the management API's routes need from the composition root. */
export interface ApiDeps {
  triggers: TriggerService;
  store: History;
  /** Destinations' pause and breaker state (README "Limits, the breaker and pause"). */
  destinations: Pick<DestinationStates, "destinationStates" | "destinationLoads" | "setPaused">;
  /** A destination was paused or resumed here: the run queue reads the states again at once. */
  onDestinationsChanged?(): void;
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
  /** `POST /api/transform/test`: runs a transform in the sandbox on a given `$trigger`, storing and sending nothing. */
  transformTest(source: string, trigger: unknown, timeoutMs?: number): Promise<TransformOutcome>;
  /** Counts a refused admin token: the 429 to answer with once its address has failed too often, else null (see AdminAuthThrottle). */
  failedAuth?(request: Request): Response | null;
}
