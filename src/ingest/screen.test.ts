import { expect, test } from "bun:test";
import { triggerRecord } from "../../test/support/ingest.ts";
import type { PreparedChecks } from "../checks/prepared_checks.ts";
import type { Delivery } from "./delivery.ts";
import { screen } from "./screen.ts";

const delivery = (): Delivery => ({
  trigger: triggerRecord({ filter: { enabled: true, mode: "include", expression: "$.ok" } }),
  requestId: "r",
  now: new Date(),
  receivedAt: "2026-01-01T00:00:00.000Z",
  method: "POST",
  headers: {},
  query: {},
  body: { ok: false, email: "a@b.c" },
  bodyJson: null,
  app: null,
  claim: null,
  replayOf: null,
});

test("a filtered-out delivery keeps its redacted body (for replay), with the reason", async () => {
  const checks: PreparedChecks = {
    passes: async () => false,
    redact: async (body) => ({ ...(body as object), email: "[REDACTED]" }),
  };
  expect(await screen(checks, delivery(), false)).toEqual({
    filteredOut: "filter (include) did not match",
    body: { ok: false, email: "[REDACTED]" },
    query: {},
    headers: {},
  });
});

test("a replay past the filter only redacts; otherwise the filter, then redaction", async () => {
  const calls: string[] = [];
  const checks: PreparedChecks = {
    passes: async () => (calls.push("passes"), true),
    redact: async (body) => (calls.push("redact"), { ...(body as object), email: "[REDACTED]" }),
  };
  expect(await screen(checks, delivery(), true)).toEqual({ filteredOut: null, body: { ok: false, email: "[REDACTED]" }, query: {}, headers: {} });
  expect(calls).toEqual(["redact"]);
  expect((await screen(checks, delivery(), false)).filteredOut).toBeNull();
  expect(calls).toEqual(["redact", "passes", "redact"]);
});

test("redaction covers the query and the headers too, each on its own; empty ones are not redacted", async () => {
  const seen: unknown[] = [];
  const checks: PreparedChecks = {
    redact: async (value) => {
      seen.push(value);
      return typeof value === "object" && value !== null && "x-customer-email" in value ? { ...value, "x-customer-email": "[REDACTED]" } : value;
    },
  };
  const headers = { "content-type": "text/plain", "x-customer-email": "jane@example.com" };
  const out = await screen(checks, { ...delivery(), headers }, true);
  expect(out.headers).toEqual({ "content-type": "text/plain", "x-customer-email": "[REDACTED]" });
  expect(out.query).toEqual({});
  expect(seen).toEqual([{ ok: false, email: "a@b.c" }, headers]);
});
