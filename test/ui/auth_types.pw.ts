import { execFile } from "node:child_process";
import { createHmac, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { promisify } from "node:util";
import { expect, test, type Page } from "@playwright/test";
import { openNewTrigger, postWebhook, saveNew, signIn, startNewTrigger, triggerNamed, uniqueName } from "./support.ts";

const run = promisify(execFile);

/** A compact JWS: HS256 with a shared key, or ES256 with a private key (raw r||s, as JOSE wants). */
function jwt(claims: Record<string, unknown>, key: string | KeyObject): string {
  const alg = typeof key === "string" ? "HS256" : "ES256";
  const b64 = (data: string | Buffer) => Buffer.from(data).toString("base64url");
  const input = `${b64(JSON.stringify({ alg, typ: "JWT" }))}.${b64(JSON.stringify(claims))}`;
  const signature =
    typeof key === "string" ? createHmac("sha256", key).update(input).digest() : sign("sha256", Buffer.from(input), { key, dsaEncoding: "ieee-p1363" });
  return `${input}.${b64(signature)}`;
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/** Runs the trigger's Curl Command as shown, with `env` set; returns the HTTP status. */
async function runCurl(page: Page, env: Record<string, string>): Promise<string> {
  const command = await page.getByLabel("Curl Command").inputValue();
  const { stdout } = await run("sh", ["-c", `${command} -o /dev/null -w '%{http_code}'`], { env: { ...process.env, ...env }, timeout: 15_000 });
  return stdout;
}

/** Reveal, then the generated secret as shown. */
async function revealed(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Reveal" }).click();
  const field = page.getByLabel("Secret", { exact: true });
  await expect(field).not.toHaveValue("");
  return field.inputValue();
}

test("basic: the Username set in the panel and the revealed password let the curl command through", async ({ page }) => {
  const name = await startNewTrigger(page, "basic");
  await page.getByLabel("Authentication Type").selectOption("basic");
  const username = page.getByLabel("Username", { exact: true });
  await expect(username).toHaveValue("inlet");
  await username.fill("shop");
  await saveNew(page);
  expect((await triggerNamed(name)).auth).toMatchObject({ type: "basic", username: "shop", hasSecret: true });

  // The curl command reads the password from $INLET_SECRET, and its hint says so.
  await expect(page.getByLabel("Curl Command")).toHaveAccessibleDescription(/\$INLET_SECRET/);
  const password = await revealed(page);
  expect(await runCurl(page, { INLET_SECRET: password })).toBe("200");
  expect(await runCurl(page, { INLET_SECRET: "wrong" })).toBe("401");
});

test("jwt HS256: the revealed key signs tokens that pass; the Issuer set in the panel is enforced", async ({ page }) => {
  const name = await startNewTrigger(page, "jwt-hs");
  await page.getByLabel("Authentication Type").selectOption("jwt");
  await expect(page.getByLabel("JWT algorithm")).toHaveValue("HS256");
  await expect(page.getByLabel("Public key (PEM)")).toHaveCount(0);
  await page.getByLabel("Issuer", { exact: true }).fill("https://issuer.example");
  await page.getByLabel("Audience", { exact: true }).fill("orders");
  const tolerance = page.getByLabel("Clock tolerance (seconds)");
  await tolerance.fill("a minute");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(tolerance).toHaveAccessibleErrorMessage("Enter a whole number of seconds from 0 to 3600.");
  await tolerance.fill("30");
  await saveNew(page);
  expect((await triggerNamed(name)).auth.jwt).toEqual({
    algorithms: ["HS256"],
    issuer: "https://issuer.example",
    audience: "orders",
    clockToleranceSeconds: 30,
  });

  await expect(page.getByLabel("Curl Command")).toHaveAccessibleDescription(/\$INLET_JWT/);
  const key = await revealed(page);
  const claims = { iss: "https://issuer.example", aud: "orders", exp: inAnHour() };
  expect(await runCurl(page, { INLET_JWT: jwt(claims, key) })).toBe("200");
  expect(await runCurl(page, { INLET_JWT: jwt({ ...claims, iss: "https://elsewhere.example" }, key) })).toBe("401");
});

test("jwt ES256: the Public key (PEM) pasted in the panel verifies the signer's tokens", async ({ page }) => {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const name = await startNewTrigger(page, "jwt-es");
  await page.getByLabel("Authentication Type").selectOption("jwt");
  await page.getByLabel("JWT algorithm").selectOption("ES256");
  const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
  await page.getByLabel("Public key (PEM)").fill(pem);
  await saveNew(page);
  const saved = await triggerNamed(name);
  expect(saved.auth.jwt).toMatchObject({ algorithms: ["ES256"], publicKey: pem.trim() });

  const token = jwt({ exp: inAnHour() }, privateKey);
  expect((await postWebhook(saved.url, "{}", { Authorization: `Bearer ${token}` })).status).toBe(200);
  const other = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
  expect((await postWebhook(saved.url, "{}", { Authorization: `Bearer ${jwt({ exp: inAnHour() }, other)}` })).status).toBe(401);
});

test("none, header (GET-only), hmac-sha256 and hmac-sha512 (base64): each trigger made in the panel answers its Curl Command, and its run opens from Activity", async ({
  page,
}) => {
  await signIn(page);
  const cases: Array<{ type: string; setUp?: () => Promise<void>; curl: RegExp; hint: RegExp; secret: boolean }> = [
    { type: "none", curl: /-X POST/, hint: /No credential needed/, secret: false },
    {
      type: "header",
      setUp: async () => {
        await page.getByLabel("Methods").selectOption({ label: "GET" });
        await page.getByLabel("Header Name", { exact: true }).fill("X-Shop-Token");
      },
      curl: /^curl -sS -H "X-Shop-Token: \$INLET_SECRET" '[^']+\?/,
      hint: /\$INLET_SECRET/,
      secret: true,
    },
    { type: "hmac-sha256", curl: /-H 'X-Signature: sha256=[0-9a-f]{64}'/, hint: /runs as is/, secret: false },
    {
      type: "hmac-sha512",
      // The answer to replayed signed requests: Payload Hash deduplication.
      setUp: async () => {
        await page.getByLabel("HMAC encoding").selectOption("base64");
        await page.getByRole("group", { name: "Deduplication" }).getByLabel("Strategy").selectOption({ label: "Payload Hash" });
      },
      curl: /-H 'X-Signature: sha512=[A-Za-z0-9+/]{86}=='/,
      hint: /runs as is/,
      secret: false,
    },
  ];
  for (const c of cases) {
    await page.goto("/#/");
    await openNewTrigger(page);
    await page.getByLabel("Authentication Type").selectOption(c.type);
    await page.getByLabel("Name", { exact: true }).fill(uniqueName(c.type));
    await c.setUp?.();
    await saveNew(page);
    await expect(page.getByLabel("Curl Command")).toHaveValue(c.curl);
    await expect(page.getByLabel("Curl Command")).toHaveAccessibleDescription(c.hint);
    // Only a type with a credential has a secret: hidden, then revealed.
    await expect(page.getByRole("button", { name: "Reveal" })).toHaveCount(c.type === "none" ? 0 : 1);
    const secret = c.secret ? await revealed(page) : "";
    expect(await runCurl(page, { INLET_SECRET: secret }), c.type).toBe("200");
    if (c.secret) expect(await runCurl(page, { INLET_SECRET: "wrong" }), c.type).toBe("401");
  }

  // The last one again: a byte-identical replay is collapsed, and only the first is in run history.
  expect(await runCurl(page, {})).toBe("200");
  await page.getByRole("link", { name: "Activity" }).click();
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows.filter({ hasText: "Deduplicated" })).toHaveCount(1);
  await rows.filter({ hasText: "Run" }).getByRole("link", { name: "View run" }).click();
  await expect(page.getByRole("link", { name: "Runs" })).toHaveAttribute("aria-current", "page");
  await expect(page.locator(".runs tbody tr")).toHaveCount(1);
  const trigger = page.getByLabel("$trigger");
  await expect(trigger).toContainText('"type": "sample.created"');
  // The signature header is a credential: not passed on to the workflow.
  await expect(trigger).not.toContainText("x-signature");
});
