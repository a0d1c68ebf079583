import { expect, test } from "bun:test";
import { trigger, type OpenStore } from "./contract_fixtures.ts";

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
}
