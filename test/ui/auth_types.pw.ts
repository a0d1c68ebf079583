import { execFile } from "node:child_process";
import { createHmac, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { promisify } from "node:util";
import { expect, test, type Page } from "@playwright/test";
import { postWebhook, saveNew, startNewTrigger, triggerNamed } from "./support.ts";

const run = promisify(execFile);

/** A compact JWS: HS256 with a shared key, or ES256 with a private key (raw r||s, as JOSE wants). */
function jwt(claims: Record<string, unknown>, key: string | KeyObject): string {
  const alg = typeof key === "string" ? "HS256" : "ES256";
  const b64 = (data: string | Buffer) => Buffer.from(data).toString("base64url");
  const input = `${b64(JSON.stringify({ alg, typ: "JWT" }))}.${b64(JSON.stringify(claims))}`;
  const signature = typeof key === "string" ? createHmac("sha256", key).update(input).digest() : sign("sha256", Buffer.from(input), { key, dsaEncoding: "ieee-p1363" });
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
  expect((await triggerNamed(name)).auth.jwt).toEqual({ algorithms: ["HS256"], issuer: "https://issuer.example", audience: "orders", clockToleranceSeconds: 30 });

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
