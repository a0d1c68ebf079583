/**
 * Test cases every "HMAC of the raw body in one header" plugin shares, checked against
 * `node:crypto` as an independent oracle. Call inside a plugin's `index.test.ts`.
 *
 * @module
 */
import { createHmac } from "node:crypto";
import { expect, test } from "bun:test";
import { pluginContext, type InletPlugin, type PluginFixture } from "../../src/plugins/index.ts";
import { accepted, signedFixture, tampered, withHeaders } from "./test_support.ts";

export interface BodyHmacSpec {
  header: string;
  algorithm: "sha1" | "sha256";
  encoding: "hex" | "base64";
  prefix?: string;
  /** The clock for these cases; default the real time (pin it when the body carries the signed timestamp). */
  now?: Date;
}

/** Registers the shared cases for a body-HMAC plugin. */
export function bodyHmacCases(plugin: InletPlugin, fixture: PluginFixture, spec: BodyHmacSpec): void {
  const prefix = spec.prefix ?? "";
  const oracle = (secret: string, body: string) => prefix + createHmac(spec.algorithm, secret).update(body).digest(spec.encoding);
  const now = spec.now ?? new Date();

  test(`sign() puts ${prefix}<${spec.encoding} HMAC-${spec.algorithm.toUpperCase()} of the body> in ${spec.header}`, async () => {
    const req = await signedFixture(plugin, fixture, now);
    expect(req.headers.get(spec.header)).toBe(oracle(fixture.appSecret, fixture.body));
    expect(await accepted(plugin, req, fixture.appSecret, now)).toBe(true);
  });

  test("a signature computed independently with node:crypto verifies", async () => {
    const req = withHeaders(await signedFixture(plugin, fixture, now), { [spec.header]: oracle(fixture.appSecret, fixture.body) });
    expect(await accepted(plugin, req, fixture.appSecret, now)).toBe(true);
  });

  test("a tampered body, a wrong secret or an empty secret fails", async () => {
    const req = await signedFixture(plugin, fixture, now);
    expect(await accepted(plugin, tampered(req), fixture.appSecret, now)).toBe(false);
    expect(await accepted(plugin, req, `${fixture.appSecret}x`, now)).toBe(false);
    expect(await plugin.verify(req, pluginContext("", now))).toBe(false);
  });

  test("a missing, bare or garbled signature header fails without throwing", async () => {
    const req = await signedFixture(plugin, fixture, now);
    const good = req.headers.get(spec.header) ?? "";
    const ctx = pluginContext(fixture.appSecret, now);
    expect(await plugin.verify(withHeaders(req, { [spec.header]: null }), ctx)).toBe(false);
    expect(await plugin.verify(withHeaders(req, { [spec.header]: prefix }), ctx)).toBe(false);
    expect(await plugin.verify(withHeaders(req, { [spec.header]: `${prefix}%%%not a digest%%%` }), ctx)).toBe(false);
    if (prefix !== "") expect(await plugin.verify(withHeaders(req, { [spec.header]: good.slice(prefix.length) }), ctx)).toBe(false);
  });

  test("the delivery id and the event come out of the sample delivery", async () => {
    const req = await signedFixture(plugin, fixture, now);
    const ctx = pluginContext(fixture.appSecret, now);
    expect(plugin.deliveryId ? plugin.deliveryId(req, ctx) : null).toBe(fixture.deliveryId);
    expect(plugin.event ? plugin.event(req, JSON.parse(fixture.body)) : null).toBe(fixture.event);
    expect(plugin.credentialHeaders).toContain(spec.header.toLowerCase());
  });
}
