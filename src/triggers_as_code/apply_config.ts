import { TokenTaken } from "../store/errors.ts";
import type { ApplyPlan, TriggerSnapshot } from "../triggers/apply_plan.ts";
import { failure, type ConfigResult } from "./config_error.ts";
import { planConfig, type Plan } from "./plan.ts";
import type { ConfigFile, TriggersAsCodeContext } from "./validate_config.ts";

/** What applying needs of the trigger service: a snapshot to plan from, and the one-transaction apply. */
export interface TriggerApplier {
  snapshot(): Promise<TriggerSnapshot>;
  apply(plan: ApplyPlan, revision: number): Promise<"applied" | "stale">;
}

/**
 * How many times a plan is made again when the triggers changed between planning and writing
 * (another process applied or edited meanwhile): each round is one snapshot and one transaction.
 */
const MAX_ROUNDS = 5;

/**
 * Plans a validated file against the triggers as they are and, unless `dryRun` or nothing would
 * change, applies it in one transaction (docs/config-file.md#applying). When another process
 * changed the triggers meanwhile nothing was written, and it is planned again from what that
 * process left: a second instance applying the same file finds every trigger unchanged. The
 * plan that was applied (or would be) is the result; a token that the store finds taken while
 * writing is an error naming the trigger, nothing changed.
 */
export async function applyConfig(
  config: ConfigFile,
  triggers: TriggerApplier,
  context: TriggersAsCodeContext,
  options: { dryRun?: boolean } = {},
): Promise<ConfigResult<Plan>> {
  for (let round = 1; ; round++) {
    const { triggers: current, revision } = await triggers.snapshot();
    const planned = planConfig(config, current, context);
    if (!planned.ok || !planned.value.changes || options.dryRun) return planned;
    try {
      if ((await triggers.apply(planned.value, revision)) === "applied") return planned;
    } catch (error) {
      if (!(error instanceof TokenTaken)) throw error;
      return failure([
        {
          code: "token_taken",
          trigger: error.triggerName,
          path: "/token",
          message: "is already another trigger's token (taken while applying): nothing was changed",
        },
      ]);
    }
    if (round === MAX_ROUNDS) {
      return failure([
        {
          code: "changed_meanwhile",
          message: `the triggers changed while the file was being applied, ${MAX_ROUNDS} times over: nothing was changed; try again`,
        },
      ]);
    }
  }
}
