import { UsageError } from "../config/server_config.ts";

/** Splits `--name value`, `--name=value` and bare flags out of a command's own options. */
export function takeOptions(args: string[], known: Record<string, "value" | "flag">): { options: Record<string, string | true>; rest: string[] } {
  const options: Record<string, string | true> = {};
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("--")) {
      rest.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    const kind = known[name];
    if (!kind) {
      rest.push(arg);
      if (eq < 0 && args[i + 1] !== undefined && !args[i + 1].startsWith("--")) rest.push(args[++i]);
      continue;
    }
    if (kind === "flag") {
      options[name] = true;
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    options[name] = value;
  }
  return { options, rest };
}
