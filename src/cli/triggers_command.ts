import { loadServerConfig, UsageError } from "../config/server_config.ts";
import { presentTrigger } from "../triggers/present.ts";
import { atMost, parseArgs } from "./args.ts";
import { baseUrlOf, readInput, withCore } from "./core.ts";
import { print } from "./output.ts";
import { replayTriggerCommand } from "./replay_command.ts";
import { triggersTable } from "./triggers_table.ts";

/** `inlet triggers list|create|show|delete|rotate|arm|replay`. */
export async function triggers(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { options, positional, serverArgs } = parseArgs(rest, {
    name: "value",
    auth: "value",
    methods: "value",
    "header-name": "value",
    "signature-header": "value",
    encoding: "value",
    app: "value",
    "app-secret": "value",
    input: "value",
    reveal: "flag",
    json: "flag",
    source: "value",
    status: "value",
    since: "value",
    until: "value",
    limit: "value",
    "dry-run": "flag",
    "skip-filter": "flag",
    overlap: "value",
  });
  const takes = ({ list: 0, create: 0, show: 1, delete: 1, rotate: 1, arm: 1, replay: 1 } as Record<string, number>)[sub];
  if (takes !== undefined) atMost(positional, takes, "triggers");
  const config = loadServerConfig(serverArgs);
  return withCore(config, async (core) => {
    switch (sub) {
      case "list": {
        const base = await baseUrlOf(core);
        const list = core.triggers.list();
        print(options.json ? list.map((t) => presentTrigger(t, base)) : triggersTable(list, base, (id) => core.plugins.has(id)));
        return 0;
      }
      case "create": {
        const input: Record<string, unknown> = options.input ? (readInput(String(options.input)) as Record<string, unknown>) : {};
        if (options.name) input.name = options.name;
        if (options.methods) input.methods = String(options.methods).split(",").map((m) => m.trim().toUpperCase());
        if (options.app) input.app = options.app;
        if (options["app-secret"]) input.appSecret = options["app-secret"];
        const auth: Record<string, unknown> = { ...((input.auth as object) ?? {}) };
        if (options.auth) auth.type = options.auth;
        if (options["header-name"]) auth.headerName = options["header-name"];
        if (options["signature-header"]) auth.signatureHeader = options["signature-header"];
        if (options.encoding) auth.encoding = options.encoding;
        if (Object.keys(auth).length) input.auth = auth;
        print(presentTrigger(await core.triggers.create(input), await baseUrlOf(core)));
        return 0;
      }
      case "show": {
        const t = core.triggers.get(positional[0] ?? "");
        if (!t) throw new UsageError(positional[0] ? `no trigger with id ${positional[0]}` : "triggers show needs a trigger id");
        print({ ...presentTrigger(t, await baseUrlOf(core)), ...(options.reveal ? { secret: t.secret } : {}) });
        return 0;
      }
      case "delete": {
        if (!positional[0]) throw new UsageError("triggers delete needs a trigger id");
        if (!(await core.triggers.delete(positional[0]))) throw new UsageError(`no trigger with id ${positional[0]}`);
        print(`deleted ${positional[0]}`);
        return 0;
      }
      case "rotate": {
        if (!positional[0]) throw new UsageError("triggers rotate needs a trigger id: inlet triggers rotate ID [--overlap SECONDS]");
        const overlap = options.overlap === undefined ? 0 : Number(options.overlap);
        if (!Number.isInteger(overlap) || overlap < 0 || overlap > 604_800) throw new UsageError(`--overlap must be a whole number of seconds from 0 to 604800 (got ${options.overlap})`);
        const rotated = await core.triggers.rotate(positional[0], { overlapSeconds: overlap, ...(options["app-secret"] ? { appSecret: String(options["app-secret"]) } : {}) });
        if (!rotated) throw new UsageError(`no trigger with id ${positional[0]}`);
        print({ ...(rotated.secret ? { secret: rotated.secret } : {}), previousExpiresAt: rotated.previousExpiresAt });
        return 0;
      }
      case "arm": {
        if (!positional[0]) throw new UsageError("triggers arm needs a trigger id: inlet triggers arm ID");
        const armed = await core.triggers.arm(positional[0]);
        if (!armed) throw new UsageError(`no trigger with id ${positional[0]}`);
        if (armed.kind === "not_armable") throw new Error(armed.message);
        print({ armedUntil: armed.armedUntil });
        return 0;
      }
      case "replay":
        print(await replayTriggerCommand(core, config, positional[0], options));
        return 0;
      default:
        throw new UsageError(`unknown command 'triggers ${sub ?? ""}' (list, create, show, delete, rotate, arm, replay)`);
    }
  });
}
