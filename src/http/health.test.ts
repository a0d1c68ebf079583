import { expect, test } from "bun:test";
import type { Store } from "../store/store.ts";
import { healthRoutes } from "./health.ts";
import { Metrics } from "./metrics.ts";

/** Just what the health routes ask of a store. */
const storeThatAnswers = (up: boolean) => ({ ping: async () => up, runsWaitingOnKey: async () => ({}) }) as unknown as Store;

const get = (store: Store, path: string) => healthRoutes(store, new Metrics(), () => ({})).handle(new Request(`http://inlet.test${path}`));

test("/readyz: 200 while the store answers; 503 with Retry-After when it does not, like a webhook's 503", async () => {
  const ready = await get(storeThatAnswers(true), "/readyz");
  expect(ready.status).toBe(200);
  expect(ready.headers.get("retry-after")).toBeNull();
  const unready = await get(storeThatAnswers(false), "/readyz");
  expect(unready.status).toBe(503);
  expect(unready.headers.get("retry-after")).toBe("5");
  expect(await unready.text()).toBe("store unreachable\n");
});

test("/metrics refused by its guard: the guard's 401, before any metric is read; /healthz and /readyz never ask", async () => {
  let read = 0;
  const store = { ping: async () => true, runsWaitingOnKey: async () => (read++, {}) } as unknown as Store;
  const refuse = () => new Response('{"error":"unauthorized"}', { status: 401 });
  const app = healthRoutes(
    store,
    new Metrics(),
    () => ({}),
    () => [],
    refuse,
  );
  const at = (path: string) => app.handle(new Request(`http://inlet.test${path}`));
  expect((await at("/metrics")).status).toBe(401);
  expect(read).toBe(0);
  expect((await at("/healthz")).status).toBe(200);
  expect((await at("/readyz")).status).toBe(200);
  const open = await healthRoutes(store, new Metrics(), () => ({})).handle(new Request("http://inlet.test/metrics"));
  expect(open.status).toBe(200);
  expect(open.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  expect(read).toBe(1);
});
