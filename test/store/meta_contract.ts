import { expect, test } from "bun:test";
import type { OpenStore } from "./contract_fixtures.ts";

/** MetaStore: values by key, kept across calls; the first of racing creators wins. */
export function metaContract(open: OpenStore): void {
  test("setMetaIfAbsent keeps the first value", async () => {
    const store = await open();
    expect(await store.setMetaIfAbsent("first", "a")).toBe("a");
    expect(await store.setMetaIfAbsent("first", "b")).toBe("a");
    expect(await store.getMeta("first")).toBe("a");
    await store.close();
  });

  test("meta values persist", async () => {
    const store = await open();
    await store.setMeta("x", "1");
    await store.setMeta("x", "2");
    expect(await store.getMeta("x")).toBe("2");
    expect(await store.getMeta("missing")).toBeNull();
    await store.close();
  });
}
