import { homedir } from "node:os";
import { join } from "node:path";
import { loadServerConfig, UsageError } from "../config/server_config.ts";
import { ScaffoldRefused } from "../plugins/new_files.ts";
import { scaffoldPlugin } from "../plugins/scaffold.ts";
import { atMost, parseArgs } from "./args.ts";
import { loadPlugins } from "../core.ts";
import { print } from "./output.ts";

/** `inlet plugins list|new`. */
export async function plugins(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "new") {
    const { options, positional, serverArgs } = parseArgs(rest, { dir: "value" });
    if (!positional[0]) throw new UsageError("plugins new needs an id: inlet plugins new acme [--dir DIR]");
    atMost(positional, 1, "plugins");
    // Outside any checkout by default: a plugin written into one would join its test run.
    const dir = String(options.dir ?? loadServerConfig(serverArgs).pluginsDir ?? join(homedir(), "inlet-plugins"));
    try {
      for (const file of scaffoldPlugin(dir, positional[0])) print(`wrote ${file}`);
    } catch (error) {
      // A path in the way is not a usage mistake: exit 1, with the path and why.
      if (error instanceof ScaffoldRefused) throw error;
      throw new UsageError((error as Error).message);
    }
    print(`load it with: inlet serve --plugins-dir ${dir}`);
    return 0;
  }
  if (sub !== "list") throw new UsageError(`unknown command 'plugins ${sub ?? ""}' (list, new)`);
  const { positional, serverArgs } = parseArgs(rest, {});
  atMost(positional, 0, "plugins");
  // The plugins alone: listing them neither needs nor creates a data dir or a database.
  const registry = await loadPlugins(loadServerConfig(serverArgs));
  print(registry.list().map((p) => ({ id: p.id, name: p.name, secret: p.secret, source: p.source })));
  return 0;
}
