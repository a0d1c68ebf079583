import { expect, test } from "bun:test";
import { TokenTaken } from "../../src/store/errors.ts";
import type { StoredTrigger } from "../../src/store/store.ts";
import { trigger, type OpenStore } from "./contract_fixtures.ts";

/** `trigger(id)` with another token and name. */
const withToken = (id: string, token: string, name = id): StoredTrigger => {
  const t = trigger(id);
  return { ...t, config: { ...t.config, token, name } };
};

/** TriggerStore: triggers are stored, changed and removed, and every change moves the revision. */
export function triggersContract(open: OpenStore): void {
  test("triggers: insert, read, update, delete, revision moves on every change", async () => {
    const store = await open();
    const r0 = await store.triggersRevision();
    await store.insertTrigger(trigger("t1"));
    expect(await store.triggersRevision()).toBeGreaterThan(r0);
    expect((await store.getTrigger("t1"))?.config.name).toBe("t1");
    const changed = trigger("t1");
    changed.config.name = "renamed";
    await store.updateTrigger(changed);
    expect((await store.getTrigger("t1"))?.config.name).toBe("renamed");
    expect((await store.listTriggers()).map((t) => t.config.id)).toContain("t1");
    expect(await store.deleteTrigger("t1")).toBe(true);
    expect(await store.deleteTrigger("t1")).toBe(false);
    expect(await store.getTrigger("t1")).toBeNull();
    await store.close();
  });

  test("triggers: the armed-until time is stored, changed and cleared with the trigger", async () => {
    const store = await open();
    const until = "2026-03-01T12:15:00.000Z";
    await store.insertTrigger({ ...trigger("t11"), armedUntil: until });
    expect((await store.getTrigger("t11"))?.armedUntil).toBe(until);
    expect((await store.listTriggers()).find((t) => t.config.id === "t11")?.armedUntil).toBe(until);
    const later = "2026-03-01T13:00:00.000Z";
    await store.updateTrigger({ ...trigger("t11"), armedUntil: later });
    expect((await store.getTrigger("t11"))?.armedUntil).toBe(later);
    // An adoption clears it; a trigger saved without one is not armed.
    await store.updateTrigger({ ...trigger("t11"), armedUntil: null });
    expect((await store.getTrigger("t11"))?.armedUntil).toBeNull();
    await store.insertTrigger(trigger("t12"));
    expect((await store.getTrigger("t12"))?.armedUntil).toBeNull();
    await store.close();
  });

  test("triggers: an apply deletes, updates and inserts in one transaction and moves the revision once", async () => {
    const store = await open();
    for (const id of ["a1", "a2", "a3"]) await store.insertTrigger(trigger(id));
    await store.insertTrigger(trigger("a4"));
    const revision = await store.triggersRevision();
    const applied = await store.applyTriggers({
      deletes: ["a1"],
      // a2 and a3 swap tokens; the new a5 takes the token of the deleted a1.
      updates: [withToken("a2", "tok-a3", "two"), withToken("a3", "tok-a2")],
      inserts: [withToken("a5", "tok-a1")],
      expectedRevision: revision,
    });
    expect(applied).toBe(true);
    expect(await store.triggersRevision()).toBe(revision + 1);
    const byId = Object.fromEntries((await store.listTriggers()).map((t) => [t.config.id, t.config]));
    expect(Object.keys(byId).sort()).toEqual(["a2", "a3", "a4", "a5"]);
    expect([byId.a2.token, byId.a2.name, byId.a3.token, byId.a4.token, byId.a5.token]).toEqual(["tok-a3", "two", "tok-a2", "tok-a4", "tok-a1"]);
    await store.close();
  });

  test("triggers: an apply planned against an older revision writes nothing and says so", async () => {
    const store = await open();
    await store.insertTrigger(trigger("b1"));
    const planned = await store.triggersRevision();
    await store.insertTrigger(trigger("b2"));
    expect(await store.applyTriggers({ deletes: ["b1"], updates: [], inserts: [trigger("b3")], expectedRevision: planned })).toBe(false);
    expect((await store.listTriggers()).map((t) => t.config.id).sort()).toEqual(["b1", "b2"]);
    expect(await store.triggersRevision()).toBe(planned + 1);
    await store.close();
  });

  test("triggers: a token already taken while applying rolls the whole apply back (TokenTaken names the trigger)", async () => {
    const store = await open();
    for (const id of ["c1", "c2", "c3"]) await store.insertTrigger(trigger(id));
    const revision = await store.triggersRevision();
    const attempt = store.applyTriggers({
      deletes: ["c1"],
      updates: [withToken("c2", "tok-c2", "renamed")],
      inserts: [withToken("c4", "tok-c4"), withToken("c5", "tok-c3", "thief")],
      expectedRevision: revision,
    });
    await expect(attempt).rejects.toBeInstanceOf(TokenTaken);
    await expect(attempt).rejects.toThrow("thief: /token: is already another trigger's token; nothing was changed");
    const after = (await store.listTriggers()).map((t) => `${t.config.id}:${t.config.name}:${t.config.token}`).sort();
    expect(after).toEqual(["c1:c1:tok-c1", "c2:c2:tok-c2", "c3:c3:tok-c3"]);
    expect(await store.triggersRevision()).toBe(revision);
    await store.close();
  });
}
