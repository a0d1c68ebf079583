import { afterAll, beforeAll, expect, test } from "bun:test";
import { withPinnedClock, type PinnedClock } from "./support/clock.ts";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "./support/server.ts";

// Guessing the admin token (README "Admin authentication and the server's own secrets"): through
// the socket, so the client address is the one the server computes (here behind a trusted proxy,
// 127.0.0.1, whose X-Forwarded-For names a client per test). The clock is pinned to the start of a
// minute so that 21 requests never straddle two.
const METRICS_TOKEN = "metrics-token-for-tests-0123456789";
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, ["--trusted-proxies", "127.0.0.1", "--metrics-token", METRICS_TOKEN]);
});
afterAll(() => server.close());

const call = (path: string, client: string, token?: string) =>
  fetch(`${server.url}${path}`, { headers: { "X-Forwarded-For": client, ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }) } });

/** Runs `body` with the clock 1 s into the next minute. */
const atMinuteStart = (body: (clock: PinnedClock) => Promise<void>) =>
  withPinnedClock(async (clock) => {
    clock.set((Math.floor(clock.now() / 60_000) + 1) * 60_000 + 1000);
    await body(clock);
  });

test("20 failed admin authentications a minute from one address get 401; the rest of the minute 429 with Retry-After; a correct token still passes", async () => {
  await atMinuteStart(async (clock) => {
    const client = "198.51.100.1";
    for (let i = 0; i < 20; i++) expect((await call("/api/triggers", client, `wrong-${i}`)).status).toBe(401);
    const refused = await call("/api/triggers", client, "wrong-20");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("59");
    expect(await refused.json()).toEqual({ error: "too many requests" });
    // No token at all is a failure too.
    expect((await call("/api/triggers", client)).status).toBe(429);
    // Whoever holds the token is not locked out, and passing does not lift the block.
    expect((await call("/api/triggers", client, ADMIN_TOKEN)).status).toBe(200);
    expect((await call("/api/triggers", client, "wrong-21")).status).toBe(429);
    // Another address has its own count.
    expect((await call("/api/triggers", "198.51.100.2", "wrong")).status).toBe(401);
    // The block ends with the clock minute.
    clock.advance(58_999);
    expect((await call("/api/triggers", client, "wrong-22")).headers.get("retry-after")).toBe("1");
    clock.advance(1);
    expect((await call("/api/triggers", client, "wrong-23")).status).toBe(401);
  });
});

test("/metrics takes the admin token, so its refusals count with the management API's", async () => {
  await atMinuteStart(async () => {
    const client = "198.51.100.3";
    for (let i = 0; i < 20; i++) expect((await call("/metrics", client, `wrong-${i}`)).status).toBe(401);
    const refused = await call("/metrics", client, "wrong-20");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("59");
    expect(await refused.json()).toEqual({ error: "too many requests" });
    expect((await call("/api/triggers", client, "wrong")).status).toBe(429);
    expect((await call("/metrics", client, METRICS_TOKEN)).status).toBe(200);
    expect((await call("/metrics", client, ADMIN_TOKEN)).status).toBe(200);
  });
});
