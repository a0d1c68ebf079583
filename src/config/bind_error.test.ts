import { expect, test } from "bun:test";
import { explainBindError } from "./bind_error.ts";
import { UsageError } from "./usage_error.ts";

const failure = (code: string) => Object.assign(new Error(`Failed to start server (${code})`), { code });

test("a port in use is one line that names the address and the way out", () => {
  const error = explainBindError(failure("EADDRINUSE"), { host: "127.0.0.1", port: 8080 });
  expect(error).toBeInstanceOf(UsageError);
  expect((error as Error).message).toBe(
    "cannot listen on 127.0.0.1:8080: the port is in use (another inlet?); stop what listens there or choose another with --port (INLET_PORT; 0 = any free port)",
  );
  expect((explainBindError(failure("EADDRNOTAVAIL"), { host: "::2", port: 1 }) as Error).message).toStartWith("cannot listen on [::2]:1: no such address");
});

test("other errors pass through unchanged", () => {
  const other = new Error("boom");
  expect(explainBindError(other, { host: "127.0.0.1", port: 1 })).toBe(other);
});
