import { describe, expect, test } from "bun:test";
import { createPublicKey, verify } from "node:crypto";
import { pluginContext, type InletPlugin } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import sendgridPlugin from "./index.ts";

const sendgrid: InletPlugin = sendgridPlugin;

const NOW = new Date(1_750_000_000_000);

// sendgrid-nodejs packages/eventwebhook eventwebhook.spec.js
const SPEC_KEY = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEDr2LjtURuePQzplybdC+u4CwrqDqBaWjcMMsTbhdbcwHBcepxo7yAQGhHPTnlvFYPAZFceEu/1FwCM/QmGUhA==";
const SPEC_BODY = '{"category":"example_payload","event":"test_event","message_id":"message_id"}';
const SPEC_SIGNATURE = "MEUCIQCtIHJeH93Y+qpYeWrySphQgpNGNr/U+UyUlBkU6n7RAwIgJTz2C+8a8xonZGi6BpSzoQsbVRamr2nlxFDWYNH2j/0=";
const SPEC_TS = "1588788367";

describe("sendgrid plugin", () => {
  const specRequest = requestOf({
    body: SPEC_BODY,
    headers: { "x-twilio-email-event-webhook-signature": SPEC_SIGNATURE, "x-twilio-email-event-webhook-timestamp": SPEC_TS },
  });
  const specTime = new Date(Number(SPEC_TS) * 1000);

  test("verifies the vector of SendGrid's SDK tests", async () => {
    expect(await accepted(sendgrid, specRequest, SPEC_KEY, specTime)).toBe(true);
    expect(await accepted(sendgrid, withHeaders(specRequest, { "x-twilio-email-event-webhook-timestamp": "1588788368" }), SPEC_KEY, specTime)).toBe(false);
    expect(
      await accepted(sendgrid, { ...specRequest, rawBody: new TextEncoder().encode(SPEC_BODY.replace("test_event", "test_evenT")) }, SPEC_KEY, specTime),
    ).toBe(false);
  });

  test("takes the key with PEM armour and line breaks too", async () => {
    const pem = `-----BEGIN PUBLIC KEY-----\n${SPEC_KEY.slice(0, 64)}\n${SPEC_KEY.slice(64)}\n-----END PUBLIC KEY-----\n`;
    expect(await accepted(sendgrid, specRequest, pem, specTime)).toBe(true);
  });

  test("signs DER ECDSA that node:crypto verifies with the public key", async () => {
    const req = await signedFixture(sendgrid, fixture, NOW);
    const ts = req.headers.get("x-twilio-email-event-webhook-timestamp")!;
    expect(ts).toBe("1750000000");
    const key = createPublicKey({ key: Buffer.from(fixture.appSecret, "base64"), format: "der", type: "spki" });
    const signature = Buffer.from(req.headers.get("x-twilio-email-event-webhook-signature")!, "base64");
    expect(verify("sha256", Buffer.from(ts + fixture.body), key, signature)).toBe(true);
    expect(await accepted(sendgrid, req, fixture.appSecret, NOW)).toBe(true);
  });

  test("rejects a raw r||s (P1363) signature, as SendGrid's SDK does", async () => {
    const req = await signedFixture(sendgrid, fixture, NOW);
    const key = createPublicKey({ key: Buffer.from(fixture.appSecret, "base64"), format: "der", type: "spki" });
    const der = Buffer.from(req.headers.get("x-twilio-email-event-webhook-signature")!, "base64");
    const p1363 = derToP1363(der);
    // The conversion is right: the r||s form verifies when asked for that encoding.
    expect(verify("sha256", Buffer.from("1750000000" + fixture.body), { key, dsaEncoding: "ieee-p1363" }, p1363)).toBe(true);
    expect(await accepted(sendgrid, withHeaders(req, { "x-twilio-email-event-webhook-signature": p1363.toString("base64") }), fixture.appSecret, NOW)).toBe(
      false,
    );
  });

  test("dedups a batch by its events' sg_event_id", async () => {
    const ctx = pluginContext(fixture.appSecret, NOW);
    const one = requestOf({ body: JSON.stringify([{ event: "bounce", sg_event_id: "Ym91bmNlLTA" }]) });
    expect(sendgrid.deliveryId!(one, ctx)).toBe("Ym91bmNlLTA");
    const batch = await signedFixture(sendgrid, fixture, NOW);
    const reordered = requestOf({ body: JSON.stringify([...JSON.parse(fixture.body)].reverse()) });
    expect(sendgrid.deliveryId!(reordered, ctx)).toBe(sendgrid.deliveryId!(batch, ctx));
    expect(sendgrid.deliveryId!(requestOf({ body: '[{"event":"open"}]' }), ctx)).toBeNull();
    expect(sendgrid.event!(batch, JSON.parse(fixture.body))).toBe("delivered,open");
  });
});

/** An ASN.1 DER ECDSA-Sig-Value as 64 bytes r||s. */
function derToP1363(der: Buffer): Buffer {
  let at = 2;
  const part = () => {
    const length = der[at + 1];
    const bytes = der.subarray(at + 2, at + 2 + length);
    at += 2 + length;
    const trimmed = bytes[0] === 0 ? bytes.subarray(1) : bytes;
    return Buffer.concat([Buffer.alloc(32 - trimmed.length), trimmed]);
  };
  return Buffer.concat([part(), part()]);
}
