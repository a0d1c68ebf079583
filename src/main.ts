#!/usr/bin/env bun
/** Entry of the `inlet` binary: the CLI, the server with `inlet serve`, or a script sandbox child. */
import { SANDBOX_CHILD_ARG } from "./runs/script/protocol.ts";

if (process.argv[2] === SANDBOX_CHILD_ARG) {
  // A sandbox child loads only QuickJS, not the server: it starts in tens of milliseconds.
  const { runSandboxChild } = await import("./runs/script/child.ts");
  await runSandboxChild();
} else {
  const { runCli } = await import("./cli/commands.ts");
  const code = await runCli(process.argv.slice(2));
  process.exit(code);
}
