import { expect, test } from "bun:test";
import { triggerRecord } from "../../test/support/ingest.ts";
import { curlCommand, SAMPLE_BODY } from "./curl.ts";
import { presentTrigger } from "./present.ts";

const URL_ = "http://127.0.0.1:8080/webhooks/tok";

test("bearer and header modes read the secret from $INLET_SECRET, never print it", () => {
  const bearer = curlCommand(triggerRecord({ auth: { type: "bearer", signatureHeader: "X-Signature", encoding: "hex" }, secret: "s3cret" }), URL_);
  expect(bearer).toContain('-H "Authorization: Bearer $INLET_SECRET"');
  expect(bearer).not.toContain("s3cret");
  const header = curlCommand(
    triggerRecord({ auth: { type: "header", headerName: "X-Key", signatureHeader: "X-Signature", encoding: "hex" }, secret: "s3cret" }),
    URL_,
  );
  expect(header).toContain('-H "X-Key: $INLET_SECRET"');
});

test("HMAC modes carry a valid signature of the sample body", () => {
  const command = curlCommand(triggerRecord({ auth: { type: "hmac-sha512", signatureHeader: "X-Sig", encoding: "base64" }, secret: "k" }), URL_);
  const expected = new Bun.CryptoHasher("sha512", "k").update(SAMPLE_BODY).digest("base64");
  expect(command).toContain(`'X-Sig: sha512=${expected}'`);
  expect(command).toContain(`--data-raw '${SAMPLE_BODY}'`);
});

test("a GET-only trigger's sample puts its fields in the query", () => {
  expect(curlCommand(triggerRecord({ methods: ["GET"] }), URL_)).toBe(`curl -sS '${URL_}?type=sample.created&id=123'`);
});

test("the public Trigger: url from the base URL, hasSecret, and no secret in it", () => {
  const trigger = triggerRecord({ auth: { type: "hmac-sha256", signatureHeader: "X-Signature", encoding: "hex" }, secret: "k" });
  const shown = presentTrigger(trigger, "https://hooks.example.com");
  expect(shown.url).toBe("https://hooks.example.com/webhooks/tok_1");
  expect(shown.auth).toEqual({ type: "hmac-sha256", signatureHeader: "X-Signature", encoding: "hex", hasSecret: true, previousSecretExpiresAt: null });
  expect(JSON.stringify(shown)).not.toContain('"k"');
  const app = presentTrigger(triggerRecord({ app: "stripe", appSecret: null, secret: null }), "http://x");
  expect(app.auth.hasSecret).toBe(false);
});
