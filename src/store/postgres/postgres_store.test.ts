import { afterAll, describe, expect, test } from "bun:test";
import { freshDatabase, postgresAvailable, sharedPostgres } from "../../../test/support/postgres.ts";
import { storeContract } from "../store_contract.ts";
import { PostgresStore } from "./postgres_store.ts";

const opened: PostgresStore[] = [];
const open = async () => {
  const store = await PostgresStore.open(await freshDatabase((await sharedPostgres())!));
  opened.push(store);
  return store;
};
afterAll(async () => {
  for (const store of opened) await store.close();
});

describe.skipIf(!postgresAvailable())("postgres", () => {
  storeContract("postgres", open);

  test("migrations apply once under concurrent starts (advisory lock)", async () => {
    const url = await freshDatabase((await sharedPostgres())!);
    const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open(url)));
    expect(stores.map((s) => s.applied.length).sort()).toEqual([0, 0, 0, 1]);
    const again = await PostgresStore.open(url);
    expect(again.applied).toEqual([]);
    for (const s of [...stores, again]) await s.close();
  });

  test("a trigger change is announced to every watcher", async () => {
    const url = await freshDatabase((await sharedPostgres())!);
    const [a, b] = await Promise.all([PostgresStore.open(url), PostgresStore.open(url)]);
    let seen = 0;
    const watch = await b.watchTriggers(() => seen++);
    const before = seen;
    await a.setMeta("unrelated", "1");
    await a.insertTrigger({
      config: { id: "w1", token: "tok-w1", name: "w1", createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() } as never,
      secretSealed: null,
      appSecretSealed: null,
    });
    for (let i = 0; i < 100 && seen === before; i++) await Bun.sleep(10);
    expect(seen).toBeGreaterThan(before);
    await watch.close();
    await a.close();
    await b.close();
  });
});
