import { thresholdOf, type AlertRule, type AlertState } from "../records/alert.ts";

/**
 * `&`, `<` and `>` as Slack's message text wants them (`&amp;`, `&lt;`, `&gt;`): Slack reads
 * `<…>` as a link or a mention, so a trigger named `<!channel>` would ping a whole channel.
 *
 * @example
 * ```ts
 * slackEscaped("<!channel> & co"); // "&lt;!channel&gt; &amp; co"
 * ```
 */
export function slackEscaped(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * The one line a person reads in a notification's `text` (and a Slack incoming webhook shows),
 * escaped for Slack; the notification's `alert` fields carry the raw values.
 *
 * @example
 * ```ts
 * alertText("<!channel>", { kind: "backlog", count: 10 }, "firing", 12);
 * // '🔴 inlet: trigger "&lt;!channel&gt;" — 12 runs queued or running (alert at 10)'
 * ```
 */
export function alertText(triggerName: string, rule: AlertRule, state: AlertState, value: number): string {
  const name = JSON.stringify(triggerName);
  const what = {
    silence: `no accepted request for ${value} s (alert at ${thresholdOf(rule)} s)`,
    auth_failures: `${value} authentication failures in the last ${"seconds" in rule ? rule.seconds : 0} s (alert at ${thresholdOf(rule)})`,
    run_failures: `${value} failed runs in the last ${"seconds" in rule ? rule.seconds : 0} s (alert at ${thresholdOf(rule)})`,
    backlog: `${value} runs queued or running (alert at ${thresholdOf(rule)})`,
    destination_open: `a destination's breaker open for ${value} s (alert at ${thresholdOf(rule)} s)`,
  }[rule.kind];
  return slackEscaped(state === "firing" ? `🔴 inlet: trigger ${name} — ${what}` : `✅ inlet: trigger ${name} recovered — ${what}`);
}
