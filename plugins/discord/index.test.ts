import { describe, expect, test } from "bun:test";
import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { handshakeAnswer, pluginContext } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import discord from "./index.ts";

const NOW = new Date(1_750_000_000_000);
const at = (unix: number) => new Date(unix * 1000);

async function handshake(body: unknown, secret = fixture.appSecret, signingKey = fixture.signingKey) {
  const req = await signedFixture(discord, { ...fixture, body: JSON.stringify(body), signingKey }, NOW);
  // The host asks for a POST handshake only once the request verifies; Discord declares its PINGs.
  return handshakeAnswer(discord, req, pluginContext(secret, NOW)) as Promise<Response | null>;
}

describe("discord plugin", () => {
  // docs/plugins.md#test-vectors: tweetnacl keyPair.fromSeed(32 × 0x01), checked with discord-interactions verifyKey.
  test("reproduces the verifyKey-checked Ed25519 vector", async () => {
    const publicKey = "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c";
    const signature = "9ef52e0980512fc86504213828935ead2d8ad69632af84e31aae7c0a1593a04f81779d871c1d68240dce56038c60788e51e59a6c3f14c72a4183c785b1e8b70e";
    const req = requestOf({ body: '{"type":1}' });
    const signed = await discord.sign!(req, pluginContext("01".repeat(32), at(1700000000)));
    expect(signed.headers).toEqual({ "X-Signature-Ed25519": signature, "X-Signature-Timestamp": "1700000000" });
    expect(await accepted(discord, withHeaders(req, signed.headers), publicKey, at(1700000000))).toBe(true);
    expect(await accepted(discord, withHeaders(req, signed.headers), publicKey.toUpperCase(), at(1700000000))).toBe(true);
  });

  test("signs with a PKCS#8 PEM private key as well as a hex seed", async () => {
    const pem = createPrivateKey({
      key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), Buffer.from(fixture.signingKey, "hex")]),
      format: "der",
      type: "pkcs8",
    }).export({ format: "pem", type: "pkcs8" }) as string;
    const req = await signedFixture(discord, { ...fixture, signingKey: pem }, NOW);
    expect(await accepted(discord, req, fixture.appSecret, NOW)).toBe(true);
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ format: "pem", type: "pkcs8" }) as string;
    expect(() => discord.sign!(requestOf(), pluginContext(rsa, NOW))).toThrow(TypeError);
  });

  test("rejects a signature over a different timestamp", async () => {
    const req = await signedFixture(discord, fixture, NOW);
    expect(await accepted(discord, withHeaders(req, { "x-signature-timestamp": "1750000001" }), fixture.appSecret, NOW)).toBe(false);
  });

  test("answers a verified PING with a PONG, and a forged one not at all", async () => {
    const ping = { application_id: "1247865092134326272", id: "1384206143208919091", token: "t", type: 1, version: 1 };
    const pong = (await handshake(ping))!;
    expect(pong.status).toBe(200);
    expect(await pong.json()).toEqual({ type: 1 });
    // Discord's own check: a badly signed PING must get a 401, so it is no handshake here.
    expect(await handshake(ping, fixture.appSecret, "02".repeat(32))).toBeNull();
  });

  test("answers a Webhook Events PING with 204", async () => {
    const response = (await handshake({ version: 1, application_id: "1247865092134326272", type: 0 }))!;
    expect(response.status).toBe(204);
  });

  test("treats commands and Webhook Events as deliveries", async () => {
    expect(await handshake(JSON.parse(fixture.body))).toBeNull();
    const event = {
      version: 1,
      application_id: "1247865092134326272",
      type: 1,
      event: {
        type: "APPLICATION_AUTHORIZED",
        timestamp: "2025-06-15T14:26:40.000000+00:00",
        data: { integration_type: 0, scopes: ["applications.commands"] },
      },
    };
    expect(await handshake(event)).toBeNull();
    const req = await signedFixture(discord, { ...fixture, body: JSON.stringify(event) }, NOW);
    expect(discord.event!(req, event)).toBe("APPLICATION_AUTHORIZED");
    expect(discord.deliveryId!(req, pluginContext(fixture.appSecret, NOW))).toBeNull();
    expect(discord.contentDedupWindowSeconds).toBe(3600);
  });

  test("reads the interaction id and type", async () => {
    const req = await signedFixture(discord, fixture, NOW);
    expect(discord.deliveryId!(req, pluginContext(fixture.appSecret, NOW))).toBe("1384206143208919090");
    expect(discord.event!(req, { type: 3 })).toBe("MESSAGE_COMPONENT");
    expect(discord.event!(req, { type: 99 })).toBe("99");
  });
});
