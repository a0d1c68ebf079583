import { expect, test } from "bun:test";
import { alertText, slackEscaped } from "./alert_text.ts";

test("&, < and > are escaped the way Slack's text wants, & first so nothing is escaped twice", () => {
  expect(slackEscaped("<!channel> & <http://evil|click>")).toBe("&lt;!channel&gt; &amp; &lt;http://evil|click&gt;");
  expect(slackEscaped("&lt;")).toBe("&amp;lt;");
  expect(slackEscaped("orders")).toBe("orders");
});

test("a trigger named like a Slack mention or link shows literally in the alert text", () => {
  expect(alertText("<!channel>", { kind: "backlog", count: 10 }, "firing", 12)).toBe(
    '🔴 inlet: trigger "&lt;!channel&gt;" — 12 runs queued or running (alert at 10)',
  );
  expect(alertText("<http://evil|click>", { kind: "silence", seconds: 60 }, "ok", 3)).toBe(
    '✅ inlet: trigger "&lt;http://evil|click&gt;" recovered — no accepted request for 3 s (alert at 60 s)',
  );
});
