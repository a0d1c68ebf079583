#!/usr/bin/env bun
/** Entry of the `inlet` binary: the CLI, or the server with `inlet serve`. */
import { runCli } from "./cli/commands.ts";

const code = await runCli(process.argv.slice(2));
process.exit(code);
