import { expect, test } from "bun:test";
import { triggerRecord } from "../../test/support/ingest.ts";
import { compileChecks } from "../checks/compile.ts";
import { orderingKeysOf } from "./ordering_key.ts";
import { parseBodyAndText } from "./body_parsers.ts";

const checks = compileChecks(triggerRecord({ workflow: { kind: "http", url: "http://127.0.0.1:9/x", orderingKey: "$.customer" } }));
const keyOf = async (json: string) =>
  (await orderingKeysOf(checks, parseBodyAndText(new TextEncoder().encode(json), "application/json").value)).default ?? null;

test("ordering keys on integers beyond 2^53 keep every digit: two different ids are two keys", async () => {
  expect(await keyOf('{"customer":9007199254740993}')).toBe("9007199254740993");
  expect(await keyOf('{"customer":9007199254740992}')).toBe("9007199254740992");
  expect(await keyOf('{"customer":1e400}')).toBe("1e+400");
  expect(await keyOf('{"customer":{"id":12345678901234567890,"region":"eu"}}')).toBe('{"id":12345678901234567890,"region":"eu"}');
});

test("each destination's ordering key is its own; destinations without one have none", async () => {
  const several = compileChecks(
    triggerRecord({
      workflow: { kind: "none" },
      destinations: [
        { name: "crm", workflow: { kind: "http", url: "http://127.0.0.1:9/crm", orderingKey: "$.customer" } },
        { name: "ledger", workflow: { kind: "command", argv: ["/bin/true"], orderingKey: "$.account" } },
        { name: "audit", workflow: { kind: "command", argv: ["/bin/true"] } },
      ],
    }),
  );
  expect(await orderingKeysOf(several, { customer: "c1", account: 7 })).toEqual({ crm: '"c1"', ledger: "7" });
  expect(await orderingKeysOf(several, { customer: "c1" })).toEqual({ crm: '"c1"' });
});
