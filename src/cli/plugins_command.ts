import { homedir } from "node:os";
import { join } from "node:path";
import { loadServerConfig } from "../config/load_server_config.ts";
import { UsageError } from "../config/usage_error.ts";
import { loadPlugins } from "../core.ts";
import { ScaffoldRefused } from "../plugins/new_files.ts";
import { scaffoldPlugin } from "../plugins/scaffold.ts";
import type { ParsedArgs } from "./args.ts";
import { print } from "./output.ts";

/** `inlet plugins new ID [--dir DIR]`: a plugin and its test, to start from. */
export async function newPlugin({ options, positional: [id], serverArgs }: ParsedArgs): Promise<number> {
  if (!id) throw new UsageError("plugins new needs an id: inlet plugins new acme [--dir DIR]");
  // Outside any checkout by default: a plugin written into one would join its test run.
  const dir = String(options.dir ?? loadServerConfig(serverArgs).pluginsDir ?? join(homedir(), "inlet-plugins"));
  try {
    for (const file of scaffoldPlugin(dir, id)) print(`wrote ${file}`);
  } catch (error) {
    // A path in the way is not a usage mistake: exit 1, with the path and why.
    if (error instanceof ScaffoldRefused) throw error;
    throw new UsageError((error as Error).message);
  }
  print(`load it with: inlet serve --plugins-dir ${dir}`);
  return 0;
}

/** `inlet plugins list`: the plugins alone, so it neither needs nor creates a data dir or a database. */
export async function listPlugins({ serverArgs }: ParsedArgs): Promise<number> {
  const registry = await loadPlugins(loadServerConfig(serverArgs));
  print(registry.list().map((p) => ({ id: p.id, name: p.name, secret: p.secret, source: p.source })));
  return 0;
}
