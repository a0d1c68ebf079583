import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually, startTestServer, type TestServer } from "./support/server.ts";

/**
 * The README's worked example of "Destinations" as written there: its trigger (taken from the
 * README, the stand-in receiver's URLs and the audit file moved to this test's own), a signed
 * GitHub push, and what the README says each destination gets. A README edit that breaks the
 * example, or a change that makes it print something else, fails here.
 */
const README = readFileSync(join(import.meta.dir, "..", "README.md"), "utf8");
const example = README.slice(README.indexOf("### A worked example"), README.indexOf("### Limits, the breaker and pause"));

/** The text between `start` and the next line that is exactly `end`, in the worked example. */
function between(start: string, end: string): string {
  const from = example.indexOf(start);
  if (from < 0) throw new Error(`README's worked example has no ${JSON.stringify(start)}`);
  const body = example.slice(from + start.length);
  return body.slice(0, body.indexOf(`\n${end}\n`));
}

const triggerJson = between("cat > github-trigger.json <<'JSON'\n", "JSON");
const pushJson = /echo '(\{"ref".*\})' > push\.json/.exec(example)![1];
/** What the README says the receiver prints for Slack. */
const slackLine = /# receiver got \/slack (\{.*\})\n/.exec(example)![1];

const received: Array<{ path: string; body: any }> = [];
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    received.push({ path: new URL(request.url).pathname, body: await request.json() });
    return new Response("ok");
  },
});
const dir = mkdtempSync(join(tmpdir(), "inlet-readme-destinations-"));
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
  receiver.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

/** Sends `body` signed as GitHub signs it, with the secret the example pastes. */
async function push(url: string, secret: string, body: string) {
  const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
  return fetch(url, { method: "POST", body, headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signature, "X-GitHub-Event": "push" } });
}

test("the README's GitHub example: the service gets $trigger, Slack the line the README shows, the audit file the push; another branch skips Slack", async () => {
  const audit = join(dir, "audit.jsonl");
  const input = JSON.parse(triggerJson.replaceAll("http://127.0.0.1:9000", `http://127.0.0.1:${receiver.port}`).replaceAll("audit.jsonl", audit));
  const created = await server.api("POST", "/api/triggers", input);
  expect(created.status).toBe(201);
  const trigger = created.body;

  expect((await push(trigger.url, input.appSecret, pushJson)).status).toBe(200);
  await eventually(async () => (await server.api("GET", `/api/runs?triggerId=${trigger.id}`)).body.filter((r: any) => r.status === "succeeded").length === 3);
  expect(received.find((r) => r.path === "/slack")!.body).toEqual(JSON.parse(slackLine));
  const ci = received.find((r) => r.path === "/ci")!.body;
  expect(ci.body).toEqual(JSON.parse(pushJson));
  expect(ci.app).toMatchObject({ id: "github", event: "push" });
  expect(JSON.parse(readFileSync(audit, "utf8").trim()).body).toEqual(JSON.parse(pushJson));
  const [row] = await server.activity(trigger.id);
  expect(row.runIds).toHaveLength(3);

  // Step 4: a push to dev reaches ci and audit, not Slack.
  expect((await push(trigger.url, input.appSecret, pushJson.replace("refs/heads/main", "refs/heads/dev"))).status).toBe(200);
  await eventually(async () => (await server.api("GET", `/api/runs?triggerId=${trigger.id}`)).body.filter((r: any) => r.status === "succeeded").length === 5);
  expect(received.filter((r) => r.path === "/slack")).toHaveLength(1);
});

test("the README's transform test call answers what the README shows", async () => {
  const call = /-d '(\{"source".*\})'\n# (\{"result".*\})\n/.exec(README.slice(README.indexOf("Try a transform before saving it")))!;
  const answer = await server.api("POST", "/api/transform/test", JSON.parse(call[1]));
  expect(answer.body).toEqual(JSON.parse(call[2]));
});
