import { expect, test } from "bun:test";
import { mergeInto } from "./merge_into.ts";

test("sections' parts of one object merge; other values, arrays and nulls replace", () => {
  const body: Record<string, unknown> = { name: "orders" };
  mergeInto(body, { methods: ["POST"], auth: { type: "bearer" } });
  mergeInto(body, { auth: { mode: "report", reportUntil: "2026-12-01T00:00:00.000Z" } });
  mergeInto(body, { sources: { allow: ["192.0.2.0/24"] }, maxBodyBytes: null });
  mergeInto(body, { sources: { mode: "enforce" }, methods: ["GET"] });
  expect(body).toEqual({
    name: "orders",
    methods: ["GET"],
    auth: { type: "bearer", mode: "report", reportUntil: "2026-12-01T00:00:00.000Z" },
    sources: { allow: ["192.0.2.0/24"], mode: "enforce" },
    maxBodyBytes: null,
  });
});
