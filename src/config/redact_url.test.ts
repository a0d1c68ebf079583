import { expect, test } from "bun:test";
import { redactUrl } from "./redact_url.ts";

test("passwords never survive, whatever the scheme, parseable or not", () => {
  expect(redactUrl("postgres://inlet:s3cret@db:5432/inlet")).toBe("postgres://inlet:***@db:5432/inlet");
  expect(redactUrl("postgress://inlet:TOPSECRET@localhost:5432/x")).not.toContain("TOPSECRET");
  expect(redactUrl("postgres//inlet:TOPSECRET@localhost/x")).not.toContain("TOPSECRET");
  expect(redactUrl("inlet:TOPSECRET@localhost")).toBe("inlet:***@localhost");
  expect(redactUrl("postgres://db/inlet")).toBe("postgres://db/inlet");
});
