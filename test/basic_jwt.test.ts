import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { withPinnedClock } from "./support/clock.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Basic and JWT authentication (docs/api.md#basic-and-jwt) through real HTTP; a local JWKS server whose keys change.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const post = (url: string, authorization?: string) =>
  fetch(url, { method: "POST", body: "{}", headers: { "Content-Type": "application/json", ...(authorization ? { Authorization: authorization } : {}) } });
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
const lastDetail = async (id: string) => (await server.activity(id))[0].detail as string;
const now = () => Math.floor(Date.now() / 1000);

test("basic: the username and the generated password, constant-time; every failure the same 401", async () => {
  const t = await server.createTrigger({ name: "basic", auth: { type: "basic", username: "acme" } });
  expect(t.auth).toMatchObject({ type: "basic", username: "acme", hasSecret: true });
  expect((await post(t.url, basic("acme", t.secret))).status).toBe(200);
  for (const [header, reason] of [
    [basic("acme", "wrong"), "wrong password for the Basic username"],
    [basic("other", t.secret), "wrong Basic username"],
    [`Bearer ${t.secret}`, "Authorization header is not 'Basic <base64 of username:password>'"],
    [undefined, "missing Authorization header"],
  ] as const) {
    const r = await post(t.url, header);
    expect(r.status).toBe(401);
    expect((await r.json()).error).toBe("authentication failed");
    expect(await lastDetail(t.id)).toBe(reason);
  }
  // The curl field runs as is once INLET_SECRET is set.
  const run = Bun.spawn(["bash", "-c", `${t.curl} -o /dev/null -w '%{http_code}'`], { env: { ...process.env, INLET_SECRET: t.secret }, stdout: "pipe" });
  expect(await new Response(run.stdout).text()).toBe("200");
  const defaulted = await server.createTrigger({ name: "basic-default", auth: { type: "basic" } });
  expect(defaulted.auth.username).toBe("inlet");
});

describe("jwt", () => {
  test("HS256 with the generated key: exp required, nbf and iat honoured, issuer and audience checked", async () => {
    const t = await server.createTrigger({
      name: "jwt-hs",
      auth: { type: "jwt", jwt: { algorithms: ["HS256"], issuer: "acme", audience: "inlet", clockToleranceSeconds: 5 } },
    });
    const key = new TextEncoder().encode(t.secret);
    const token = (claims: Record<string, unknown>, alg = "HS256") => new SignJWT(claims).setProtectedHeader({ alg }).sign(key);
    expect((await post(t.url, `Bearer ${await token({ iss: "acme", aud: "inlet", exp: now() + 60 })}`)).status).toBe(200);
    const refused = [
      [{ iss: "acme", aud: "inlet" }, "claim check failed"],
      [{ iss: "acme", aud: "inlet", exp: now() - 60 }, "expired"],
      [{ iss: "acme", aud: "inlet", exp: now() + 60, nbf: now() + 60 }, "claim check failed"],
      [{ iss: "other", aud: "inlet", exp: now() + 60 }, "claim check failed"],
      [{ iss: "acme", aud: "other", exp: now() + 60 }, "claim check failed"],
    ] as const;
    for (const [claims, reason] of refused) {
      const r = await post(t.url, `Bearer ${await token(claims)}`);
      expect(r.status).toBe(401);
      expect(await lastDetail(t.id)).toContain(reason);
    }
    // alg: none is never accepted.
    const unsigned = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify({ iss: "acme", aud: "inlet", exp: now() + 60 })).toString("base64url")}.`;
    expect((await post(t.url, `Bearer ${unsigned}`)).status).toBe(401);
    expect(
      (
        await post(
          t.url,
          `Bearer ${await new SignJWT({ iss: "acme", aud: "inlet", exp: now() + 60 }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("guess"))}`,
        )
      ).status,
    ).toBe(401);
  });

  /** An HS256 trigger with no clockToleranceSeconds, and a sender of tokens with the given claims. */
  async function hsTrigger(name: string) {
    const t = await server.createTrigger({ name, auth: { type: "jwt", jwt: { algorithms: ["HS256"] } } });
    const key = new TextEncoder().encode(t.secret);
    return {
      t,
      send: async (claims: Record<string, unknown>) =>
        (await post(t.url, `Bearer ${await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(key)}`)).status,
    };
  }

  test("the clock tolerance defaults to 60 s, for exp and nbf alike", () =>
    withPinnedClock(async () => {
      const { t, send } = await hsTrigger("jwt-default-tolerance");
      expect(t.auth.jwt.clockToleranceSeconds).toBeUndefined();
      expect(await send({ exp: now() - 59 })).toBe(200);
      expect(await send({ exp: now() - 61 })).toBe(401);
      expect(await lastDetail(t.id)).toContain("expired");
      expect(await send({ exp: now() + 600, nbf: now() + 59 })).toBe(200);
      expect(await send({ exp: now() + 600, nbf: now() + 61 })).toBe(401);
      expect(await lastDetail(t.id)).toContain("nbf");
    }));

  test("iat is honoured: any past issue time passes, one beyond the tolerance in the future or not a number is refused", () =>
    withPinnedClock(async () => {
      const { t, send } = await hsTrigger("jwt-iat");
      expect(await send({ exp: now() + 600, iat: now() - 86_400 })).toBe(200);
      expect(await send({ exp: now() + 600, iat: now() + 59 })).toBe(200);
      expect(await send({ exp: now() + 600, iat: now() + 61 })).toBe(401);
      expect(await lastDetail(t.id)).toContain("iat");
      expect(await send({ exp: now() + 600, iat: "yesterday" })).toBe(401);
      expect(await lastDetail(t.id)).toContain("iat");
    }));

  test("RS256 with a PEM public key; algorithm confusion (HS256 signed with the public key) is refused", async () => {
    const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
    const pem = await exportSPKI(publicKey);
    const t = await server.createTrigger({ name: "jwt-rs", auth: { type: "jwt", jwt: { algorithms: ["RS256"], publicKey: pem } } });
    expect(t.auth.hasSecret).toBe(false);
    const good = await new SignJWT({ exp: now() + 60 }).setProtectedHeader({ alg: "RS256" }).sign(privateKey);
    expect((await post(t.url, `Bearer ${good}`)).status).toBe(200);
    const confused = await new SignJWT({ exp: now() + 60 }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(pem));
    expect((await post(t.url, `Bearer ${confused}`)).status).toBe(401);
    expect(await lastDetail(t.id)).toContain("algorithm not allowed");
  });

  /** A local JWKS host whose keys the test adds; counts its fetches. */
  async function jwksHost(...kids: string[]) {
    const pairs: Array<{ kid: string; privateKey: CryptoKey; jwk: Record<string, unknown> }> = [];
    const addKey = async (kid: string) => {
      const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
      pairs.push({ kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" } });
    };
    for (const kid of kids) await addKey(kid);
    const host = {
      fetches: 0,
      addKey,
      server: Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        fetch() {
          host.fetches++;
          return Response.json({ keys: pairs.map((p) => p.jwk) });
        },
      }),
      /** A token signed by `kid`'s key, or, for a kid the host never held, by the first key. */
      sign: (kid: string) =>
        new SignJWT({ exp: now() + 60 }).setProtectedHeader({ alg: "ES256", kid }).sign((pairs.find((p) => p.kid === kid) ?? pairs[0]).privateKey),
      trigger: (name: string) =>
        server.createTrigger({ name, auth: { type: "jwt", jwt: { algorithms: ["ES256"], jwksUrl: `http://127.0.0.1:${host.server.port}/jwks.json` } } }),
    };
    return host;
  }

  test("a JWKS URL: cached, refetched on an unknown kid at most every 30 s", async () => {
    const jwks = await jwksHost("k1");
    try {
      const t = await jwks.trigger("jwt-jwks");
      expect((await post(t.url, `Bearer ${await jwks.sign("k1")}`)).status).toBe(200);
      expect((await post(t.url, `Bearer ${await jwks.sign("k1")}`)).status).toBe(200);
      expect(jwks.fetches).toBe(1);
      await jwks.addKey("k2");
      const second = await post(t.url, `Bearer ${await jwks.sign("k2")}`);
      // Within 30 s of the last fetch an unknown kid does not refetch: the new key is known once the cooldown ends.
      expect(second.status).toBe(401);
      expect(await lastDetail(t.id)).toContain("unknown kid");
      // Unknown kids never make inlet hammer the JWKS host.
      for (let i = 0; i < 10; i++) expect((await post(t.url, `Bearer ${await jwks.sign(`nope-${crypto.randomUUID()}`)}`)).status).toBe(401);
      expect(jwks.fetches).toBe(1);
    } finally {
      jwks.server.stop(true);
    }
  });

  test("a JWKS URL: a new kid verifies once 30 s have passed since the last fetch; unknown kids refetch at most that often", async () => {
    const jwks = await jwksHost("k1");
    try {
      await withPinnedClock(async (clock) => {
        const t = await jwks.trigger("jwt-jwks-cooldown");
        const send = async (kid: string) => (await post(t.url, `Bearer ${await jwks.sign(kid)}`)).status;
        expect(await send("k1")).toBe(200);
        await jwks.addKey("k2");
        clock.advance(29_999);
        expect(await send("k2")).toBe(401);
        expect(jwks.fetches).toBe(1);
        clock.advance(1);
        expect(await send("k2")).toBe(200);
        expect(jwks.fetches).toBe(2);
        expect(await send("k1")).toBe(200);
        // The refetch restarted the cooldown: an unknown kid now waits 30 s again, then fetches once.
        clock.advance(29_999);
        expect(await send("nope-1")).toBe(401);
        expect(jwks.fetches).toBe(2);
        clock.advance(1);
        expect(await send("nope-2")).toBe(401);
        expect(await send("nope-3")).toBe(401);
        expect(jwks.fetches).toBe(3);
        expect(await lastDetail(t.id)).toContain("unknown kid");
      });
    } finally {
      jwks.server.stop(true);
    }
  });

  test("a JWKS host that fails is fetched once however many requests arrive, then not again for 30 s (doubling while it fails); every request gets the uniform 401", async () => {
    let fetches = 0;
    const failing = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch() {
        fetches++;
        return new Response("unavailable", { status: 503 });
      },
    });
    try {
      await withPinnedClock(async (clock) => {
        const t = await server.createTrigger({
          name: "jwt-jwks-down",
          auth: { type: "jwt", jwt: { algorithms: ["ES256"], jwksUrl: `http://127.0.0.1:${failing.port}/jwks.json` } },
        });
        const { privateKey } = await generateKeyPair("ES256");
        const header = `Bearer ${await new SignJWT({ exp: now() + 600 }).setProtectedHeader({ alg: "ES256", kid: "k1" }).sign(privateKey)}`;
        const answers = await Promise.all(Array.from({ length: 25 }, () => post(t.url, header)));
        for (let i = 0; i < 25; i++) answers.push(await post(t.url, header));
        for (const answer of answers) {
          expect(answer.status).toBe(401);
          expect(await answer.json()).toMatchObject({ error: "authentication failed" });
        }
        expect(fetches).toBe(1);
        expect(await lastDetail(t.id)).toContain("keys not fetched");
        clock.advance(29_999);
        expect((await post(t.url, header)).status).toBe(401);
        expect(fetches).toBe(1);
        clock.advance(1);
        expect((await post(t.url, header)).status).toBe(401);
        expect(fetches).toBe(2);
        // Failed again: 60 s now.
        clock.advance(59_999);
        expect((await post(t.url, header)).status).toBe(401);
        expect(fetches).toBe(2);
        clock.advance(1);
        expect((await post(t.url, header)).status).toBe(401);
        expect(fetches).toBe(3);
      });
    } finally {
      failing.stop(true);
    }
  });

  test("the rules at save: HS256 never mixed with a public-key algorithm, exactly one key source, a key that fits", async () => {
    const { publicKey } = await generateKeyPair("ES256", { extractable: true });
    const pem = await exportSPKI(publicKey);
    const details = async (jwt: unknown) => (await server.api("POST", "/api/triggers", { name: "jwt-bad", auth: { type: "jwt", jwt } })).body.details;
    expect((await details({ algorithms: ["HS256", "RS256"], publicKey: pem }))[0].path).toBe("/auth/jwt/algorithms");
    expect((await details({ algorithms: ["RS256"] }))[0].message).toContain("exactly one of publicKey (PEM) or jwksUrl");
    expect((await details({ algorithms: ["RS256"], publicKey: pem }))[0]).toMatchObject({
      path: "/auth/jwt/publicKey",
      message: expect.stringContaining("is a ec key"),
    });
    expect((await details({ algorithms: ["ES256"], publicKey: "nope" }))[0].message).toContain("is not a PEM public key");
    expect((await details({ algorithms: ["none"] }))[0].path).toMatch(/^\/auth\/jwt\/algorithms/);
  });
});

test("inlet sign prints a working curl for basic and jwt triggers", async () => {
  const { cli } = await import("./support/process.ts");
  const { writeFileSync, mkdtempSync, rmSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { tmpdir } = await import("node:os");
  const dir = mkdtempSync(join(tmpdir(), "inlet-test-sign-"));
  try {
    const bodyFile = join(dir, "body.json");
    writeFileSync(bodyFile, '{"n":1}');
    const { publicKey, privateKey } = await generateKeyPair("EdDSA", { extractable: true });
    const { exportPKCS8 } = await import("jose");
    writeFileSync(join(dir, "key.pem"), await exportPKCS8(privateKey));
    const triggers = [
      await server.createTrigger({ name: "sign-basic", auth: { type: "basic" } }),
      await server.createTrigger({ name: "sign-hs", auth: { type: "jwt", jwt: { algorithms: ["HS256"], audience: "inlet" } } }),
      await server.createTrigger({ name: "sign-ed", auth: { type: "jwt", jwt: { algorithms: ["EdDSA"], publicKey: await exportSPKI(publicKey) } } }),
    ];
    for (const t of triggers) {
      const signed = await cli([
        "sign",
        t.id,
        "--body",
        bodyFile,
        "--data-dir",
        server.dataDir,
        "--base-url",
        server.url,
        ...(t.name === "sign-ed" ? ["--key", join(dir, "key.pem")] : []),
      ]);
      expect(signed.stderr).toBe("");
      const run = Bun.spawn(["bash", "-c", `${signed.stdout.trim()} -o /dev/null -w '%{http_code}'`], { stdout: "pipe" });
      expect(await new Response(run.stdout).text()).toBe("200");
    }
    const missing = await cli(["sign", triggers[2].id, "--body", bodyFile, "--data-dir", server.dataDir]);
    expect(missing.stderr).toContain("--key FILE");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
