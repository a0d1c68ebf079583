import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./support/server.ts";

/**
 * One sender never hurts another (docs/processing-order.md#isolation): while one trigger is
 * attacked with bodies that blow its user regexes up, at about 20 requests per second from four
 * clients, another trigger's requests stay fast. The bound is generous for a busy 2-core CI
 * machine (the 50 ms p99 target is what `npm run bench` measures); before the checks moved off the
 * request thread, the other trigger's p50 was ~0.9 s.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, ["--sandbox-workers", "2"]);
});
afterAll(() => server.close());

const post = (url: string, body: unknown) => fetch(url, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

test("while one trigger's checks blow their deadline at 20 requests/s, another trigger keeps answering fast", async () => {
  const attacked = await server.createTrigger({
    name: "attacked",
    // Patterns read from the body: a literal I-Regexp would run on the linear engine, harmless.
    filter: { enabled: true, mode: "include", expression: "match($.s, $.p) || search($.s, $.q)" },
    redaction: { enabled: true, patterns: ["^(a+)+$"] },
  });
  const calm = await server.createTrigger({
    name: "calm",
    filter: { enabled: true, expression: '$.type == "paid"' },
    redaction: { enabled: true, patterns: ["^email$"] },
  });
  let attacking = true;
  const statuses: number[] = [];
  const attacker = async () => {
    while (attacking) {
      statuses.push((await post(attacked.url, { s: "a".repeat(40), p: "(a+)+b", q: "(a|aa)+c", ["a".repeat(40) + "!"]: 1 })).status);
      await Bun.sleep(150);
    }
  };
  const attackers = Array.from({ length: 4 }, attacker);
  await Bun.sleep(300);
  const latencies: number[] = [];
  const until = performance.now() + 3000;
  while (performance.now() < until) {
    const started = performance.now();
    const r = await post(calm.url, { type: "paid", email: "a@b.c" });
    latencies.push(performance.now() - started);
    expect(r.status).toBe(200);
    await Bun.sleep(20);
  }
  attacking = false;
  await Promise.all(attackers);
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.floor(latencies.length * 0.99)];
  console.log(
    `other trigger while attacked: ${latencies.length} requests, p50 ${latencies[Math.floor(latencies.length / 2)].toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; attacked answers: ${[...new Set(statuses)].join(", ")}`,
  );
  expect(p99).toBeLessThan(150);
  expect(new Set(statuses)).toEqual(new Set([500]));
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  expect(metrics).toMatch(new RegExp(`inlet_precheck_failed_total\\{trigger="${attacked.id}"\\} [1-9]`));
  const rows = await server.activity(attacked.id);
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((r) => r.outcome === "error" && r.detail.startsWith("pre-execution check failed"))).toBe(true);
});
