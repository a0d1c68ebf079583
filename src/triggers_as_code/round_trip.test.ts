import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SealedBox } from "../auth/sealed_box.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import { SqliteStore } from "../store/sqlite/sqlite_store.ts";
import { TriggerService } from "../triggers/service.ts";
import { formatConfigError, type ConfigResult } from "./config_error.ts";
import { exportTriggers } from "./export.ts";
import { parseConfigText, type ConfigFormat } from "./parse_config.ts";
import { exportVariables } from "./placeholders.ts";
import { formatPlan, planConfig } from "./plan.ts";
import { substitute } from "./substitute.ts";
import { context, needsGeneratedSecret } from "./testdata/context.ts";
import { validateConfig } from "./validate_config.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-config-round-trip-"));
const store = new SqliteStore(join(dir, "inlet.db"));
let records: TriggerRecord[] = [];
beforeAll(async () => {
  records = await madeThroughTheApi();
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const value = <T>(result: ConfigResult<T>): T => {
  if (!result.ok) throw new Error(result.errors.map(formatConfigError).join("\n"));
  return result.value;
};

/** Triggers made the way the API makes them, with every kind of setting, some changed afterwards. */
async function madeThroughTheApi(): Promise<TriggerRecord[]> {
  const service = new TriggerService(store, SealedBox.load(dir, undefined), context, needsGeneratedSecret);
  const inputs = [
    {
      name: "orders",
      auth: { type: "hmac-sha256", encoding: "base64", signatureHeader: "X-Orders-Signature" },
      dedup: { strategy: "expression", expression: "$.data.id", windowSeconds: 600 },
      filter: { enabled: true, mode: "exclude", expression: '$.type == "test"' },
      redaction: { enabled: true, patterns: ["^email$", "card"] },
      response: { mode: "workflow", timeoutMs: 5000 },
      workflow: { kind: "script", source: "export default ($trigger) => ({ status: 202, body: { id: `${$trigger.body.id}` } })\n", timeoutMs: 500 },
    },
    {
      name: "deploys (prod)",
      methods: ["GET", "POST"],
      auth: { type: "header", headerName: "X-Deploy-Key" },
      workflow: { kind: "command", argv: ["/usr/local/bin/deploy.sh", "--env=${ENV}"] },
    },
    {
      name: "ci",
      auth: { type: "basic", username: "ci" },
      sources: { allow: ["192.0.2.0/24", "2001:db8::1"] },
      maxBodyBytes: 2048,
      alerts: [{ kind: "silence", seconds: 3600 }],
    },
    {
      name: "id-tokens",
      auth: { type: "jwt", jwt: { algorithms: ["RS256"], jwksUrl: "https://id.example/.well-known/jwks.json", issuer: "https://id.example/" } },
    },
    {
      name: "checked",
      schema: { enabled: true, document: { type: "object", required: ["id"], properties: { id: { type: "string", pattern: "^[a-z]+$" } } } },
      workflow: { kind: "http", url: "https://hooks.example/in", headers: { "X-Source": "inlet" }, retry: { maxAttempts: 3 }, orderingKey: "$.customer.id" },
    },
    { name: "github", app: "github", appSecret: "pasted-by-the-user" },
    { name: "stripe", app: "stripe", appSecret: "whsec_from_the_provider" },
    { name: "asana", app: "asana" },
    { name: "café open" },
  ];
  const made = [];
  for (const input of inputs) made.push(await service.create(input));
  // Changed through the API afterwards: a mode switch that leaves a header name behind, a rotation with overlap.
  await service.update(made[1].id, { auth: { type: "bearer" } });
  await service.rotate(made[2].id, { overlapSeconds: 3600 });
  return service.list();
}

for (const format of ["yaml", "json"] as ConfigFormat[]) {
  test(`round trip (${format}): export, substitute the listed variables, validate, plan against the same triggers: all unchanged`, () => {
    const text = value(exportTriggers(records, context, format));
    const env = value(exportVariables(records));
    for (const secret of Object.values(env)) expect(text).not.toContain(secret);

    const substituted = value(substitute(value(parseConfigText(text, format, `inlet.${format}`)), { env: { ...env } }));
    const config = value(validateConfig(substituted.document, context, substituted.substitutedPaths));
    // After an apply every one of them is managed by the config.
    const applied = records.map((record) => ({ ...record, managedBy: "config" }) as TriggerRecord);
    const plan = value(planConfig(config, applied, context));
    expect(formatPlan(plan)).toEqual([...records].reverse().map((record) => `= unchanged ${record.name}`));
    expect(plan.changes).toBe(false);
    for (const desired of config.triggers) {
      const record = records.find((r) => r.name === desired.name)!;
      expect([desired.token, desired.secret ?? null, desired.appSecret ?? null]).toEqual([record.token, record.secret, record.appSecret]);
    }
  });
}
