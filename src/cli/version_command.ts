import { UsageError } from "../config/usage_error.ts";
import { VERSION } from "../version.ts";
import type { ParsedArgs } from "./args.ts";
import { print } from "./output.ts";

/** `inlet version` (or `inlet --version`). */
export async function version({ positional }: ParsedArgs): Promise<number> {
  if (positional.length) throw new UsageError(`unexpected argument ${positional[0]} ('inlet version' takes none)`);
  print(`inlet ${VERSION}`);
  return 0;
}
