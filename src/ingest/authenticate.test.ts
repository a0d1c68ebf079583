import { describe, expect, test } from "bun:test";
import { arrivalOf, triggerRecord } from "../../test/support/ingest.ts";
import { definePlugin } from "../plugins/define.ts";
import { appProtocol } from "./app_protocol.ts";
import { authenticateRequest } from "./authenticate.ts";
import { Ending } from "./ending.ts";
import { genericProtocol } from "./generic_protocol.ts";
import type { TriggerRecord } from "../records/trigger.ts";

const bearer = triggerRecord({ auth: { type: "bearer", signatureHeader: "X-Signature", encoding: "hex" }, secret: "s3cret" });
const body = new TextEncoder().encode('{"a":1}');

test("a right credential yields a Verified request carrying the raw bytes", async () => {
  const arrival = arrivalOf(bearer, { headers: { Authorization: "Bearer s3cret" } });
  const verified = await authenticateRequest(genericProtocol(bearer, {}), arrival, body);
  expect(verified).not.toBeInstanceOf(Ending);
  if (verified instanceof Ending) return;
  expect(verified.rawBody).toBe(body);
  expect(verified.arrival).toBe(arrival);
});

test("every failure is the same 401; the reason is only for the owner's row", async () => {
  for (const [header, reason] of [
    [undefined, "missing Authorization header"],
    ["Bearer nope", "wrong bearer token"],
    ["Bearer  s3cret", "wrong bearer token"],
  ] as const) {
    const arrival = arrivalOf(bearer, { headers: header ? { Authorization: header } : {} });
    const ending = (await authenticateRequest(genericProtocol(bearer, {}), arrival, body)) as Ending;
    expect(ending.outcome).toBe("auth_failed");
    expect(ending.detail).toBe(reason);
    expect(await ending.response.json()).toEqual({ error: "authentication failed", request_id: arrival.requestId });
  }
});

const acme = definePlugin({
  id: "acme",
  name: "Acme",
  secret: { label: "Signing secret", generated: false },
  verify: (req, ctx) => ctx.timingSafeEqual(req.headers.get("x-acme-signature") ?? "", ctx.hmac("sha256", ctx.secret, req.rawBody, "hex")),
  timestamp: (req) => Number(req.headers.get("x-acme-time")),
  toleranceSeconds: 300,
});
const app = triggerRecord({ app: "acme", appSecret: "whsec" });

test("an app trigger's plugin verifies, and the host enforces its declared tolerance both ways", async () => {
  const protocol = appProtocol(app, acme, () => "http://inlet.test");
  const signature = new Bun.CryptoHasher("sha256", "whsec").update(body).digest("hex");
  const at = (seconds: number) => arrivalOf(app, { headers: { "x-acme-signature": signature, "x-acme-time": String(seconds) } });
  const now = Date.parse("2026-02-01T12:00:00.000Z") / 1000;
  expect(await authenticateRequest(protocol, at(now), body)).not.toBeInstanceOf(Ending);
  const old = (await authenticateRequest(protocol, at(now - 301), body)) as Ending;
  expect(old.detail).toBe("acme timestamp too old by 301 s (tolerance 300 s)");
  const future = (await authenticateRequest(protocol, at(now + 400), body)) as Ending;
  expect(future.detail).toBe("acme timestamp in the future by 400 s (tolerance 300 s)");
  const forged = (await authenticateRequest(protocol, arrivalOf(app, { headers: { "x-acme-signature": "00", "x-acme-time": String(now) } }), body)) as Ending;
  expect(forged.detail).toBe("acme signature missing or invalid");
});

describe("report-only rollout", () => {
  const arrivedAt = new Date("2026-02-01T12:00:00.000Z");
  const reporting = triggerRecord({ auth: { ...bearer.auth, mode: "report", reportUntil: "2026-02-02T00:00:00Z" }, secret: "s3cret" });
  const bearing = (trigger: TriggerRecord, token: string, at = arrivedAt) => arrivalOf(trigger, { headers: { Authorization: `Bearer ${token}` } }, at);

  test("a failure goes on, marked with the reason a refusal would have given; a pass is marked verified", async () => {
    const wrong = bearing(reporting, "nope");
    expect(await authenticateRequest(genericProtocol(reporting, {}), wrong, body)).not.toBeInstanceOf(Ending);
    expect(wrong.reportOnly).toEqual({ auth: { verified: false, reason: "wrong bearer token" } });
    const right = bearing(reporting, "s3cret");
    await authenticateRequest(genericProtocol(reporting, {}), right, body);
    expect(right.reportOnly).toEqual({ auth: { verified: true } });
  });

  test("from reportUntil on, and in enforce mode, a failure is the 401 and nothing is marked", async () => {
    for (const arrival of [
      bearing(reporting, "nope", new Date("2026-02-02T00:00:00.000Z")),
      bearing(triggerRecord({ auth: { ...bearer.auth, mode: "enforce" }, secret: "s3cret" }), "nope"),
    ]) {
      const ending = (await authenticateRequest(genericProtocol(arrival.trigger, {}), arrival, body)) as Ending;
      expect(ending.outcome).toBe("auth_failed");
      expect(arrival.reportOnly).toEqual({});
    }
    const enforced = bearing(bearer, "s3cret");
    await authenticateRequest(genericProtocol(bearer, {}), enforced, body);
    expect(enforced.reportOnly).toEqual({});
  });

  test("an app trigger's protocol reports the same way (its auth carries only the mode)", async () => {
    const reportingApp = triggerRecord({ ...app, auth: { ...app.auth, mode: "report", reportUntil: "2026-02-02T00:00:00Z" } });
    const now = Math.floor(arrivedAt.getTime() / 1000);
    const forged = arrivalOf(reportingApp, { headers: { "x-acme-signature": "00", "x-acme-time": String(now) } }, arrivedAt);
    expect(
      await authenticateRequest(
        appProtocol(reportingApp, acme, () => "http://inlet.test"),
        forged,
        body,
      ),
    ).not.toBeInstanceOf(Ending);
    expect(forged.reportOnly).toEqual({ auth: { verified: false, reason: "acme signature missing or invalid" } });
  });
});
