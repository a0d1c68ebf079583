import { expect, type Locator, type Page } from "@playwright/test";

/** The admin token the global setup starts inlet with. */
export const ADMIN_TOKEN = "ui-test-admin-token-0123456789abcdef";

/** This worker's own server, which the global setup started (one per worker). */
export function serverUrl(): string {
  return workerServer("INLET_UI_URL");
}

/** The data dir of this worker's server. */
export function serverDataDir(): string {
  return workerServer("INLET_UI_DATA_DIR");
}

function workerServer(name: string): string {
  const value = process.env[`${name}_${process.env.TEST_PARALLEL_INDEX ?? "0"}`];
  if (!value) throw new Error(`${name}_<worker> is not set: run these tests with \`npx playwright test\``);
  return value;
}

/** A JSON call to the management API, for arranging state the test is not about. */
export async function api(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(serverUrl() + path, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A name no other test uses. */
export const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

/** Opens the panel and signs in with the admin token. */
export async function signIn(page: Page): Promise<void> {
  await page.goto("/");
  await page.getByLabel("Admin token").fill(ADMIN_TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Triggers", level: 1 })).toBeVisible();
}

/** From the list: New trigger, with the App chosen first (Webhook unless told). */
export async function openNewTrigger(page: Page, app = "Webhook"): Promise<void> {
  await page.getByRole("button", { name: "New trigger" }).click();
  await page.getByLabel("App", { exact: true }).selectOption({ label: app });
  await expect(page.getByLabel("Authentication Type")).toBeVisible();
}

/** Saves a new trigger and waits for its Settings (the URL appears only once saved). */
export async function saveNew(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("link", { name: "Settings" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByLabel("URL", { exact: true })).toHaveValue(/\/webhooks\//);
}

/** Posts a JSON body to a trigger URL as a caller would. */
export async function postWebhook(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });
}

/** The `Copy` button that belongs to a field: it is described by that field's label. */
export async function copyButtonFor(field: Locator): Promise<Locator> {
  const labelId = await field.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.id ?? "");
  return field
    .page()
    .getByRole("button", { name: "Copy", exact: true })
    .and(field.page().locator(`[aria-describedby~="${labelId}"]`));
}

/** The stored trigger with this name, as the API reads it back. */
export async function triggerNamed(name: string): Promise<any> {
  return (await api("GET", "/api/triggers")).find((t: { name: string }) => t.name === name);
}

/** Signs in, opens a new Webhook trigger and names it; returns the name. */
export async function startNewTrigger(page: Page, prefix: string): Promise<string> {
  await signIn(page);
  await openNewTrigger(page);
  const name = uniqueName(prefix);
  await page.getByLabel("Name", { exact: true }).fill(name);
  return name;
}
