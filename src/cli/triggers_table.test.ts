import { expect, test } from "bun:test";
import type { TriggerRecord } from "../records/trigger.ts";
import { triggersTable } from "./triggers_table.ts";

const trigger = (fields: Partial<TriggerRecord>) =>
  ({
    id: "id-1",
    token: "tok1",
    name: "orders",
    app: null,
    methods: ["POST"],
    auth: { type: "bearer" },
    workflow: { kind: "none" },
    ...fields,
  }) as TriggerRecord;

test("one row per trigger: name, id, auth or app, methods, workflow, URL on the base URL", () => {
  const table = triggersTable(
    [
      trigger({}),
      trigger({ id: "id-2", token: "tok2", name: "gh", app: "github", methods: ["GET", "POST"], workflow: { kind: "http" } as TriggerRecord["workflow"] }),
      trigger({ id: "id-3", token: "tok3", name: "acme", app: "acme" }),
    ],
    "http://127.0.0.1:9000",
    (id) => id === "github",
  ).split("\n");
  expect(table[0].split(/\s+/)).toEqual(["NAME", "ID", "AUTH", "METHODS", "WORKFLOW", "URL"]);
  expect(table[1].split(/\s{2,}/)).toEqual(["orders", "id-1", "bearer", "POST", "none", "http://127.0.0.1:9000/webhooks/tok1"]);
  expect(table[2].split(/\s{2,}/)).toEqual(["gh", "id-2", "app github", "GET,POST", "http", "http://127.0.0.1:9000/webhooks/tok2"]);
  expect(table[3]).toContain("app acme (plugin not loaded)");
});

test("no triggers: a sentence that says how to make one", () => {
  expect(triggersTable([], "http://x", () => true)).toBe("no triggers yet (create one: inlet triggers create --name NAME)");
});

test("WORKFLOW: the kind for the workflow shorthand (or a list of one named default), else how many destinations", () => {
  const http = { kind: "http", url: "http://127.0.0.1:9000/crm" } as TriggerRecord["workflow"];
  const none = { kind: "none" } as TriggerRecord["workflow"];
  const rows = triggersTable(
    [
      trigger({ destinations: [{ name: "default", workflow: http, concurrency: 4 }], workflow: http }),
      trigger({
        id: "id-2",
        destinations: [
          { name: "crm", workflow: http },
          { name: "audit", workflow: none },
        ],
      }),
      trigger({ id: "id-3", destinations: [{ name: "crm", workflow: http }] }),
    ],
    "http://127.0.0.1:9000",
    () => true,
  )
    .split("\n")
    .slice(1)
    .map((line) => line.split(/\s{2,}/)[4]);
  expect(rows).toEqual(["http", "2 destinations", "1 destination"]);
});
