import { expect, test } from "bun:test";
import { formatTable } from "./table.ts";

test("columns line up under their header; the last one is not padded", () => {
  expect(
    formatTable(
      ["NAME", "ID", "URL"],
      [
        ["orders", "1", "http://x/webhooks/a"],
        ["a", "22", "http://x/webhooks/bb"],
      ],
    ),
  ).toBe(["NAME    ID  URL", "orders  1   http://x/webhooks/a", "a       22  http://x/webhooks/bb"].join("\n"));
  expect(formatTable(["NAME", "ID"], [])).toBe("NAME  ID");
});
