/**
 * axe-core on every screen of the panel, at desktop (1280 px) and phone (390 px) width: no
 * serious or critical violation anywhere (docs/api.md#the-web-panel, WCAG 2.2 AA); and once more at desktop
 * width in the dark colour scheme.
 *
 * The screens, as src/ui/client draws them (keep this list in step when a screen is added):
 *
 * - Sign-in (sign_in.ts): empty; with the refused-token message.
 * - Trigger list (list.ts): empty; with triggers, one of them with the `Firing` badge; the load error.
 * - New trigger (new_trigger.ts + editor/): App `Webhook` with each Authentication Type (none,
 *   bearer, header, hmac-sha256, hmac-sha512, basic, jwt HS256, jwt RS256 with key fields);
 *   GET-only with an HMAC type refused; Deduplication by Header Value and by Expression (with the
 *   sample preview); Pre-Execution Filter and PII Redaction off and on (with the test result and
 *   the redacted preview); Schema on with a JSON error; Workflow http, command and script with
 *   workflow response mode; Alerts with rules; the error summary after a refused Save; App
 *   GitHub (generated secret), Stripe (pasted secret) and Mailchimp (no secret).
 * - Trigger Settings (trigger_view.ts + editor/endpoint.ts): every Authentication Type saved;
 *   the secret revealed; the pending-authentication-change note; Rotate secret done and refused;
 *   app triggers with a generated and with a pasted secret (its rotation asks for the new one);
 *   several destinations (editor/destinations_section.ts), one paused, with a transform tested
 *   (its result and its error) and a destination added but left unnamed.
 *   Delete has no dialog: it deletes at once (its hint says so) and the list follows.
 * - Activity (activity.ts, chart.ts): empty; rows of every outcome (Run, Deduplicated, Filtered,
 *   Authentication failed, Rejected, Error) with the chart and legend; a Filtered row replayed;
 *   updates paused.
 * - Runs (runs.ts): empty; succeeded and failed runs with the detail; a replay's detail; the
 *   `Replay failed runs` dialog; its "none to replay" status; the dialog with its `Destinations`
 *   choice (several destinations), one unticked and none ticked.
 * - A trigger that does not exist.
 */
import { generateKeyPairSync } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./axe.ts";
import { api, openNewTrigger, postWebhook, signIn, uniqueName } from "./support.ts";

interface Fixtures {
  busy: any;
  quiet: any;
  /** Three destinations, `audit` paused. */
  several: any;
  /** Two destinations whose runs have failed: Replay failed runs asks which. */
  split: any;
  saved: Array<[string, any]>;
}

const SCRIPT = "export default ($trigger) => { if ($trigger.body.fail) throw new Error('asked to fail'); return { status: 200, body: { ok: true } } }";

let fixtures: Promise<Fixtures> | undefined;

/** The triggers every screen is drawn from, made once through the API. */
function arrange(): Promise<Fixtures> {
  return (fixtures ??= (async () => {
    // Rows of every outcome a caller can cause, and runs that succeed and fail.
    const busy = await api("POST", "/api/triggers", {
      name: uniqueName("a11y-busy"),
      auth: { type: "bearer" },
      dedup: { strategy: "payload-hash" },
      schema: { enabled: true, document: { type: "object", required: ["type"] } },
      filter: { enabled: true, mode: "include", expression: '$.type != "test.ping"' },
      redaction: { enabled: true, patterns: ["^email$", "card"] },
      workflow: { kind: "script", source: SCRIPT },
      alerts: [{ kind: "silence", seconds: 1 }],
    });
    const { secret } = await api("GET", `/api/triggers/${busy.id}/secret`);
    const auth = { Authorization: `Bearer ${secret}` };
    const paid = JSON.stringify({ type: "order.paid", data: { email: "jane@example.com", card: "4242" } });
    await postWebhook(busy.url, paid, auth);
    await postWebhook(busy.url, paid, auth);
    await postWebhook(busy.url, JSON.stringify({ type: "order.paid", fail: true }), auth);
    await postWebhook(busy.url, JSON.stringify({ type: "test.ping" }), auth);
    await postWebhook(busy.url, JSON.stringify({ no: "type" }), auth);
    await postWebhook(busy.url, paid, { Authorization: "Bearer wrong" });
    await expect
      .poll(async () => (await api("GET", `/api/runs?triggerId=${busy.id}`)).filter((r: { status: string }) => r.status === "failed").length, {
        timeout: 10_000,
      })
      .toBe(1);
    const quiet = await api("POST", "/api/triggers", { name: uniqueName("a11y-quiet") });
    const several = await api("POST", "/api/triggers", {
      name: uniqueName("a11y-several"),
      response: { mode: "workflow" },
      destinations: [
        {
          name: "crm",
          workflow: { kind: "http", url: "http://127.0.0.1:9/crm", orderingKey: "$.data.id" },
          filter: { mode: "exclude", expression: '$.type == "test.ping"' },
          transform: { source: "export default ($trigger) => ({ body: { id: $trigger.body.data.id }, headers: { 'X-Kind': $trigger.body.type } })" },
          rateLimit: { perSecond: 5 },
          concurrency: 4,
          respond: true,
        },
        { name: "audit", workflow: { kind: "command", argv: ["/bin/cat", "-"] } },
        { name: "warehouse", workflow: { kind: "script", source: SCRIPT } },
      ],
    });
    await api("POST", `/api/triggers/${several.id}/destinations/audit/pause`);
    const unreachable = (path: string) => ({ kind: "http", url: `http://127.0.0.1:9/${path}`, retry: { maxAttempts: 1 }, timeoutMs: 500 });
    const split = await api("POST", "/api/triggers", {
      name: uniqueName("a11y-split"),
      destinations: [
        { name: "crm", workflow: unreachable("crm") },
        { name: "audit", workflow: unreachable("audit") },
      ],
    });
    await postWebhook(split.url, JSON.stringify({ type: "order.paid" }));
    await expect
      .poll(async () => (await api("GET", `/api/runs?triggerId=${split.id}`)).filter((r: { status: string }) => r.status === "failed").length, {
        timeout: 10_000,
      })
      .toBe(2);

    const { publicKey } = generateKeyPairSync("ec", {
      namedCurve: "P-256",
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
    const inputs: Array<[string, Record<string, unknown>]> = [
      ["none", { auth: { type: "none" } }],
      ["bearer", { auth: { type: "bearer" } }],
      ["header", { auth: { type: "header", headerName: "X-Webhook-Secret" } }],
      ["hmac-sha256", { auth: { type: "hmac-sha256" } }],
      ["hmac-sha512", { auth: { type: "hmac-sha512", encoding: "base64" } }],
      ["basic", { auth: { type: "basic", username: "shop" } }],
      ["jwt HS256", { auth: { type: "jwt", jwt: { algorithms: ["HS256"] } } }],
      ["jwt ES256", { auth: { type: "jwt", jwt: { algorithms: ["ES256"], publicKey, issuer: "https://issuer.example" } } }],
      ["GitHub app", { app: "github" }],
      ["Stripe app", { app: "stripe", appSecret: "whsec_a11y" }],
      ["Mailchimp app", { app: "mailchimp" }],
      // Trust on first use: "Armed until …" and its Arm button.
      ["Asana app", { app: "asana" }],
    ];
    const saved: Array<[string, any]> = [];
    for (const [label, input] of inputs)
      saved.push([label, await api("POST", "/api/triggers", { name: uniqueName(`a11y-${label.replace(/\W+/g, "-")}`), ...input })]);
    return { busy, quiet, several, split, saved };
  })());
}

async function open(page: Page, hash: string): Promise<void> {
  await page.goto(`/${hash}`);
  await expect(page.locator("main [aria-busy]")).toHaveCount(0);
}

/**
 * Every screen at one size and colour scheme. Each is a spec file of its own
 * (accessibility_*.pw.ts), so that Playwright's two workers share the sizes between them.
 */
export function accessibilityAt(width: number, height: number, colorScheme: "light" | "dark"): void {
  test.describe(`at ${width} px${colorScheme === "dark" ? ", dark" : ""}`, () => {
    test.use({ viewport: { width, height }, colorScheme });
    test.beforeAll(async () => {
      test.setTimeout(60_000);
      await arrange();
    });

    test("sign-in", async ({ page }) => {
      await page.goto("/");
      await expect(page.getByLabel("Admin token")).toBeFocused();
      await expectAccessible(page, "sign-in");
      await page.getByLabel("Admin token").fill("not-the-token");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByLabel("Admin token")).toHaveAttribute("aria-invalid", "true");
      await expectAccessible(page, "sign-in, token refused");
    });

    test("trigger list: empty, with triggers and a Firing badge, and the load error", async ({ page }) => {
      test.setTimeout(60_000);
      const { busy } = await arrange();
      await expect
        .poll(async () => (await api("GET", "/api/alerts")).find((a: { triggerId: string }) => a.triggerId === busy.id)?.state, { timeout: 30_000 })
        .toBe("firing");
      await signIn(page);
      await expect(page.getByRole("row").filter({ hasText: busy.name }).getByText("Firing", { exact: true })).toBeVisible();
      await expectAccessible(page, "trigger list");

      await page.route("**/api/triggers", (route) => (route.request().method() === "GET" ? route.fulfill({ json: [] }) : route.continue()));
      await page.reload();
      await expect(page.getByText("No triggers yet.")).toBeVisible();
      await expectAccessible(page, "trigger list, empty");

      await page.unroute("**/api/triggers");
      await page.route("**/api/triggers", (route) => route.fulfill({ status: 500, json: { error: "unavailable" } }));
      await page.reload();
      await expect(page.getByRole("alert")).toContainText("Could not load the triggers");
      await expectAccessible(page, "trigger list, load error");
    });

    test("new trigger: every Authentication Type, GET-only, the app choices", async ({ page }) => {
      test.setTimeout(120_000);
      await signIn(page);
      await openNewTrigger(page);
      const authType = page.getByLabel("Authentication Type");
      for (const type of ["none", "bearer", "header", "hmac-sha256", "hmac-sha512", "basic", "jwt"]) {
        await authType.selectOption(type);
        await expectAccessible(page, `new trigger, ${type}`);
      }
      await page.getByLabel("JWT algorithm").selectOption("RS256");
      await expect(page.getByLabel("Public key (PEM)")).toBeVisible();
      await expectAccessible(page, "new trigger, jwt RS256");

      await authType.selectOption("hmac-sha256");
      await page.getByLabel("Methods").selectOption({ label: "GET" });
      await expect(authType).toHaveAttribute("aria-invalid", "true");
      await expectAccessible(page, "new trigger, GET-only with an HMAC type");

      for (const app of ["GitHub", "Stripe", "Mailchimp"]) {
        await page.getByLabel("App", { exact: true }).selectOption({ label: app });
        await expect(page.getByRole("heading", { name: `${app} app trigger` })).toBeVisible();
        await expectAccessible(page, `new ${app} trigger`);
      }
    });

    test("new trigger: the regions off and on, with their previews and errors", async ({ page }) => {
      test.setTimeout(120_000);
      await signIn(page);
      await openNewTrigger(page);
      await expectAccessible(page, "new trigger, every switch off");

      const dedup = page.getByRole("group", { name: "Deduplication" });
      await dedup.getByLabel("Strategy").selectOption({ label: "Header Value" });
      await expectAccessible(page, "deduplication by header value");
      await dedup.getByLabel("Strategy").selectOption({ label: "Expression" });
      await dedup.getByLabel("Expression").fill("$.data.id");
      await expect(dedup.getByText("On the sample it selects")).toBeVisible();
      await expectAccessible(page, "deduplication by expression, with the sample preview");

      const filter = page.getByRole("group", { name: "Pre-Execution Filter" });
      await filter.getByLabel("Expression").fill('$.type == "sample.created"');
      await expect(filter.getByRole("status")).toContainText("true");
      await expectAccessible(page, "filter off, with an expression tested");
      await filter.getByRole("switch", { name: "Pre-Execution Filter" }).check();
      await filter.getByLabel("Expression").fill('$.type = "x"');
      await expect(filter.getByLabel("Expression")).toHaveAttribute("aria-invalid", "true");
      await expectAccessible(page, "filter on, expression refused");

      const redaction = page.getByRole("group", { name: "PII Redaction" });
      await redaction.getByLabel("Field patterns").fill("^email$");
      await expect(redaction.getByLabel("Redacted preview")).toContainText("[REDACTED]");
      await expectAccessible(page, "redaction off, with a preview");
      await redaction.getByRole("switch", { name: "PII Redaction" }).check();
      await expectAccessible(page, "redaction on, with a preview");

      const schema = page.getByRole("group", { name: "Schema" });
      await schema.getByRole("switch", { name: "Schema validation" }).check();
      await schema.getByLabel("JSON Schema").fill("{ not json");
      await expectAccessible(page, "schema on, JSON refused");

      const workflow = page.getByRole("group", { name: "Workflow" });
      for (const kind of ["http", "command", "script"]) {
        await workflow.getByLabel("Kind").selectOption(kind);
        await expectAccessible(page, `workflow ${kind}`);
      }
      await workflow.getByLabel("Response mode").selectOption("workflow");
      await expectAccessible(page, "workflow response mode");

      const alerts = page.getByRole("group", { name: "Alerts" });
      await alerts.getByRole("button", { name: "Add alert rule" }).click();
      await alerts.getByRole("button", { name: "Add alert rule" }).click();
      await alerts.getByRole("group", { name: "Alert rule 2" }).getByLabel("Kind").selectOption("auth_failures");
      await expectAccessible(page, "alert rules");

      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.getByText("The trigger was not saved:")).toBeVisible();
      await expectAccessible(page, "error summary after a refused Save");
    });

    test("trigger settings: every Authentication Type and app, Reveal, Rotate secret", async ({ page }) => {
      test.setTimeout(120_000);
      const { saved } = await arrange();
      await signIn(page);
      for (const [label, trigger] of saved) {
        await open(page, `#/triggers/${trigger.id}/settings`);
        await expect(page.getByLabel("URL", { exact: true })).toHaveValue(trigger.url);
        await expectAccessible(page, `settings of a ${label} trigger`);
      }

      const [, bearer] = saved.find(([label]) => label === "bearer")!;
      await open(page, `#/triggers/${bearer.id}/settings`);
      await page.getByRole("button", { name: "Reveal" }).click();
      await expect(page.getByLabel("Secret", { exact: true })).not.toHaveValue("");
      await expectAccessible(page, "secret revealed");
      await page.getByLabel("Overlap (seconds)").fill("a week");
      await page.getByRole("button", { name: "Rotate secret" }).click();
      await expect(page.getByLabel("Overlap (seconds)")).toHaveAttribute("aria-invalid", "true");
      await expectAccessible(page, "rotate refused");
      await page.getByLabel("Overlap (seconds)").fill("3600");
      await page.getByRole("button", { name: "Rotate secret" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Rotated." })).toBeVisible();
      await expectAccessible(page, "rotated");
      await page.getByLabel("Authentication Type").selectOption("header");
      await expect(page.getByText("Save to apply the authentication change")).toBeVisible();
      await expectAccessible(page, "an unsaved authentication change");

      const [, stripe] = saved.find(([label]) => label === "Stripe app")!;
      await open(page, `#/triggers/${stripe.id}/settings`);
      await page.getByRole("button", { name: "Rotate secret" }).click();
      await expect(page.getByText(/Paste the new/)).toBeVisible();
      await expectAccessible(page, "app rotation asking for the new secret");
    });

    test("trigger settings: several destinations, one paused, a transform tested, one added", async ({ page }) => {
      test.setTimeout(60_000);
      const { several } = await arrange();
      await signIn(page);
      await open(page, `#/triggers/${several.id}/settings`);
      const audit = page.getByRole("group", { name: "audit", exact: true });
      await expect(audit.getByText("Paused", { exact: true })).toBeVisible();
      await expect(audit.getByRole("button", { name: "Resume" })).toBeVisible();
      await expectAccessible(page, "several destinations, one paused");

      const crm = page.getByRole("group", { name: "crm", exact: true });
      await crm.getByRole("button", { name: "Test transform" }).click();
      await expect(crm.getByLabel("Returned body and headers")).toContainText("X-Kind");
      await expectAccessible(page, "a transform's result on the sample");
      await crm.getByLabel("Transform").fill("export default () => { throw new Error('broken') }");
      await crm.getByRole("button", { name: "Test transform" }).click();
      await expect(crm.getByText(/The transform failed/)).toBeVisible();
      await expectAccessible(page, "a transform's error");

      await page.getByRole("button", { name: "Add destination" }).click();
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.getByText("The trigger was not saved:")).toBeVisible();
      await expectAccessible(page, "a destination added but left unnamed, refused");
    });

    test("activity: empty, every outcome, a Filtered row replayed, paused", async ({ page }) => {
      test.setTimeout(90_000);
      const { busy, quiet } = await arrange();
      await signIn(page);
      await open(page, `#/triggers/${quiet.id}/activity`);
      await expect(page.getByText("No requests yet")).toBeVisible();
      await expectAccessible(page, "activity, empty");

      // An Error row needs the store or a plugin to fail; one is added as the API would send it.
      await page.route(`**/api/triggers/${busy.id}/activity?*`, async (route) => {
        const rows = await (await route.fetch()).json();
        const at = new Date(Date.now() - 90_000).toISOString();
        const error = {
          id: "zzzz-error-row",
          at,
          requestId: crypto.randomUUID(),
          outcome: "error",
          label: "Error",
          runId: null,
          detail: "storage unavailable: disk gone",
        };
        await route.fulfill({ json: route.request().url().includes("before=") ? rows : [error, ...rows] });
      });
      await open(page, `#/triggers/${busy.id}/activity`);
      const table = page.getByRole("table");
      for (const label of ["Run", "Deduplicated", "Filtered", "Authentication failed", "Rejected", "Error"]) {
        await expect(table.getByText(label, { exact: true }).first()).toBeVisible();
      }
      await expectAccessible(page, "activity, every outcome");

      await table.getByRole("row").filter({ hasText: "Filtered" }).getByRole("button", { name: "Replay" }).first().click();
      await expect(page.getByText("Still filtered out by the current filter").first()).toBeVisible();
      await expectAccessible(page, "activity, a Filtered row replayed");

      await page.getByRole("button", { name: "Re-deliver filtered requests" }).click();
      const dialog = page.getByRole("dialog", { name: "Re-deliver filtered requests" });
      await expect(dialog.getByLabel("Skip the current filter")).toBeVisible();
      await expectAccessible(page, "Re-deliver filtered requests dialog");
      await dialog.getByRole("button", { name: "Cancel" }).click();

      await page.getByRole("button", { name: "Pause updates" }).click();
      await expect(page.getByText("Paused", { exact: true })).toBeVisible();
      await expectAccessible(page, "activity, paused");
    });

    test("runs: empty, succeeded and failed, a replay, the Replay failed runs dialog", async ({ page }) => {
      test.setTimeout(90_000);
      const { busy, quiet, split } = await arrange();
      await signIn(page);
      await open(page, `#/triggers/${quiet.id}/runs`);
      await expect(page.getByText("No runs yet")).toBeVisible();
      await expectAccessible(page, "runs, empty");
      await page.getByRole("button", { name: "Replay failed runs" }).click();
      await expect(page.getByText("No failed runs to replay.")).toBeVisible();
      await expectAccessible(page, "runs, none to replay");

      await open(page, `#/triggers/${busy.id}/runs`);
      await expect(page.getByRole("table").getByText("Failed", { exact: true }).first()).toBeVisible();
      await expect(page.getByRole("table").getByText("Succeeded", { exact: true }).first()).toBeVisible();
      await expectAccessible(page, "runs, succeeded and failed");

      const failed = page
        .getByRole("row")
        .filter({ has: page.getByText("Failed", { exact: true }) })
        .last();
      await failed.getByRole("link").click();
      await expect(page.locator(".run-detail").getByText("asked to fail")).toBeVisible();
      await expectAccessible(page, "runs, a failed run's detail");

      await page.getByRole("button", { name: "Replay failed runs" }).click();
      const dialog = page.getByRole("dialog", { name: "Replay failed runs" });
      await expect(dialog).toBeVisible();
      await expectAccessible(page, "Replay failed runs dialog");
      await dialog.getByRole("button", { name: "Cancel" }).click();

      await page.locator(".run-detail").getByRole("button", { name: "Replay", exact: true }).click();
      await expect(page.locator(".run-detail").getByText("Replay of")).toBeVisible();
      await expectAccessible(page, "runs, a replay's detail");

      await open(page, `#/triggers/${split.id}/runs`);
      await page.getByRole("button", { name: "Replay failed runs" }).click();
      const destinations = dialog.getByRole("group", { name: "Destinations" });
      await expect(dialog).toContainText("2 failed runs match.");
      await destinations.getByRole("checkbox", { name: "audit" }).uncheck();
      await expect(dialog).toContainText("1 failed run matches.");
      await expectAccessible(page, "Replay failed runs dialog, one destination unticked");
      await destinations.getByRole("checkbox", { name: "crm" }).uncheck();
      await expect(destinations).toContainText("Choose at least one destination.");
      await expectAccessible(page, "Replay failed runs dialog, no destination ticked");
    });

    test("a trigger that does not exist", async ({ page }) => {
      await signIn(page);
      await page.goto("/#/triggers/no-such-trigger/settings");
      await expect(page.getByRole("alert")).toContainText("does not exist");
      await expectAccessible(page, "trigger not found");
    });
  });
}
