import { describe, expect, test } from "bun:test";
import type { ActivityRecord } from "../../src/records/activity.ts";
import type { Store } from "../../src/store/store.ts";

/**
 * The `auth_failures` measure counts requests accepted unverified while a trigger's authentication
 * only reports (README "Report-only rollout"), by their Activity detail; run against SQLite and
 * PostgreSQL beside the store contract.
 */
export function reportOnlyAlertsContract(name: string, open: () => Promise<Store>): void {
  describe(`${name} store`, () => {
    test("the auth_failures measure counts requests accepted unverified while authentication only reports, by their detail", async () => {
      const store = await open();
      const at = new Date().toISOString();
      await store.insertTrigger({
        config: {
          id: "t-report",
          token: "tok-t-report",
          name: "t-report",
          app: null,
          methods: ["POST"],
          auth: { type: "bearer", signatureHeader: "X-Signature", encoding: "hex", mode: "report", reportUntil: "2099-01-01T00:00:00Z" },
          dedup: { strategy: "disabled" },
          filter: { enabled: false, mode: "include" },
          redaction: { enabled: false, patterns: [] },
          response: { mode: "immediate", timeoutMs: 10000 },
          workflow: { kind: "none" },
          createdAt: at,
          updatedAt: at,
        },
        secretSealed: "v1:sealed",
        appSecretSealed: null,
      });
      const now = Date.now();
      const row = (ago: number, outcome: ActivityRecord["outcome"], detail: string | null): ActivityRecord => ({
        id: Bun.randomUUIDv7(),
        triggerId: "t-report",
        at: new Date(now - ago).toISOString(),
        requestId: crypto.randomUUID(),
        outcome,
        runId: null,
        detail,
      });
      const unverified = "report-only: authentication failed: wrong bearer token";
      // Accepted unverified, whatever they ended as (committed with the request, or a lone row), and a 401.
      await store.commitIngest({ dedup: null, run: null, activity: row(1_000, "filtered", `${unverified}; filter (include) did not match`) });
      await store.recordActivity(row(2_000, "run", unverified));
      await store.recordActivity(row(3_000, "deduplicated", unverified));
      await store.recordActivity(row(4_000, "auth_failed", "wrong bearer token"));
      // Not authentication failures: an outsider let through while the allowed sources only report,
      // a verified run, another spelling, a row older than the window.
      await store.recordActivity(row(5_000, "run", "report-only: source address 203.0.113.9 is not in the trigger's allowed sources"));
      await store.recordActivity(row(6_000, "run", null));
      await store.recordActivity(row(7_000, "run", "Report-Only: Authentication failed: wrong bearer token"));
      await store.recordActivity(row(400_000, "run", unverified));
      const rule = { kind: "auth_failures" as const, count: 10, seconds: 300 };
      expect(await store.measureAlert("t-report", rule, new Date(now), new Date(now - 600_000).toISOString())).toBe(4);
      await store.close();
    });
  });
}
