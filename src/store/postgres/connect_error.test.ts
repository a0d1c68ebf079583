import { expect, test } from "bun:test";
import { describeConnectError } from "./connect_error.ts";

const url = "postgres://inlet:TOPSECRET@db.internal:6432/orders";

test("each start-up failure says what failed, where, and what to do — never the password", () => {
  const refused = describeConnectError(Object.assign(new Error("Failed to connect"), { code: "ERR_POSTGRES_CONNECTION_REFUSED" }), url);
  expect(refused).toBe(
    "could not connect to db.internal:6432 (Failed to connect): check that PostgreSQL is running there and reachable from this machine, and the URL's host and port",
  );
  const auth = describeConnectError(Object.assign(new Error('password authentication failed for user "inlet"'), { errno: "28P01" }), url);
  expect(auth).toContain('refused database "orders" as user "inlet"');
  expect(auth).toContain("check the user and password");
  expect(describeConnectError(Object.assign(new Error('database "orders" does not exist'), { errno: "3D000" }), url)).toContain("createdb");
  for (const m of [refused, auth]) expect(m).not.toContain("TOPSECRET");
});
