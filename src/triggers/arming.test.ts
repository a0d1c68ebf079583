import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILTIN_PLUGINS } from "../../plugins/builtin.ts";
import { SealedBox } from "../auth/sealed_box.ts";
import { expressionRules } from "../checks/compile.ts";
import { PluginRegistry } from "../plugins/registry.ts";
import { SqliteStore } from "../store/sqlite/sqlite_store.ts";
import { adoptionOf } from "./adoption.ts";
import { TriggerService } from "./service.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-arming-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MINUTE = 60_000;
const T0 = Date.parse("2026-03-01T12:00:00.000Z");
let n = 0;

/** A service on a fresh SQLite store whose clock the test moves; `reopened()` is another process on the same store. */
function serviceAt(clock: { ms: number }) {
  const path = join(dir, `db-${n++}.sqlite`);
  const box = SealedBox.load(dir, undefined);
  const plugins = new PluginRegistry(BUILTIN_PLUGINS);
  const make = (store: SqliteStore) =>
    new TriggerService(
      store,
      box,
      { rules: expressionRules, plugins },
      () => false,
      () => new Date(clock.ms),
    );
  const store = new SqliteStore(path);
  const others: SqliteStore[] = [];
  const reopened = () => make(others[others.push(new SqliteStore(path)) - 1]);
  return { service: make(store), close: async () => Promise.all([store, ...others].map((s) => s.close())), reopened };
}
const at = (ms: number) => new Date(ms);

test("adoptionOf: armed adopts (also over a stored secret); unarmed takes only the secret already stored", () => {
  const armedUntil = new Date(T0 + 15 * MINUTE).toISOString();
  expect(adoptionOf({ appSecret: null, armedUntil }, "s1", at(T0))).toBe("adopted");
  expect(adoptionOf({ appSecret: "s1", armedUntil }, "s2", at(T0))).toBe("adopted");
  expect(adoptionOf({ appSecret: null, armedUntil }, "s1", at(T0 + 15 * MINUTE))).toBe("not_armed");
  expect(adoptionOf({ appSecret: null, armedUntil: null }, "s1", at(T0))).toBe("not_armed");
  expect(adoptionOf({ appSecret: "s1", armedUntil: null }, "s1", at(T0))).toBe("already_adopted");
  expect(adoptionOf({ appSecret: "s1", armedUntil: null }, "s2", at(T0))).toBe("not_armed");
});

test("an Asana trigger is armed for 15 minutes from its creation; after that a handshake's secret is not adopted", async () => {
  const clock = { ms: T0 };
  const { service, close } = serviceAt(clock);
  const created = await service.create({ name: "asana", app: "asana" });
  expect(created.armedUntil).toBe("2026-03-01T12:15:00.000Z");
  clock.ms = T0 + 16 * MINUTE;
  expect(await service.adoptAppSecret(created.id, "from-a-stranger", at(clock.ms))).toBe("not_armed");
  expect(service.get(created.id)?.appSecret).toBeNull();
  await close();
});

test("arm: 15 minutes from now; an adoption ends the window; arming again lets the next handshake replace the secret", async () => {
  const clock = { ms: T0 };
  const { service, close, reopened } = serviceAt(clock);
  const { id } = await service.create({ name: "asana", app: "asana" });
  clock.ms = T0 + 60 * MINUTE;
  const armed = await service.arm(id);
  expect(armed).toMatchObject({ kind: "armed", armedUntil: "2026-03-01T13:15:00.000Z" });
  // Stored: another process on the same store (a restart, a second instance) sees it.
  const other = reopened();
  await other.refresh(true);
  expect(other.get(id)?.armedUntil).toBe("2026-03-01T13:15:00.000Z");

  expect(await service.adoptAppSecret(id, "first", at(clock.ms + MINUTE))).toBe("adopted");
  expect(service.get(id)).toMatchObject({ appSecret: "first", armedUntil: null });
  // The window ended with the adoption: a second offer within the 15 minutes is refused.
  expect(await service.adoptAppSecret(id, "second", at(clock.ms + 2 * MINUTE))).toBe("not_armed");
  expect(await service.adoptAppSecret(id, "first", at(clock.ms + 2 * MINUTE))).toBe("already_adopted");

  clock.ms += 3 * MINUTE;
  await service.arm(id);
  expect(await service.adoptAppSecret(id, "replacement", at(clock.ms + MINUTE))).toBe("adopted");
  expect(service.get(id)?.appSecret).toBe("replacement");
  await other.refresh();
  expect(other.get(id)).toMatchObject({ appSecret: "replacement", armedUntil: null });
  await close();
});

test("arm: unknown id is undefined; a trigger whose plugin adopts no secret cannot be armed, saying why", async () => {
  const { service, close } = serviceAt({ ms: T0 });
  expect(await service.arm("nope")).toBeUndefined();
  const stripe = await service.create({ name: "stripe", app: "stripe", appSecret: "whsec_x" });
  const generic = await service.create({ name: "generic" });
  expect(stripe.armedUntil).toBeUndefined();
  expect(await service.arm(stripe.id)).toMatchObject({
    kind: "not_armable",
    message: expect.stringContaining("an app trigger of stripe, whose secret is pasted or generated,"),
  });
  expect(await service.arm(generic.id)).toMatchObject({ kind: "not_armable", message: expect.stringContaining("a generic trigger") });
  await close();
});
