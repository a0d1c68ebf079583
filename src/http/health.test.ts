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
