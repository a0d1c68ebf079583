import { readFileSync } from "node:fs";
import { loadServerConfig, publicBaseUrl, UsageError, type ServerConfig } from "../config/server_config.ts";
import { openCore, startServer, type Core } from "../server.ts";
import { presentTrigger } from "../triggers/present.ts";
import { VERSION } from "../version.ts";
import { parseArgs } from "./args.ts";
import { HELP } from "./help.ts";
import { migrate } from "./migrate.ts";
import { replayRunCommand, replayTriggerCommand } from "./replay_command.ts";
import { signedCurl } from "./sign.ts";
import { scaffoldPlugin } from "../plugins/scaffold.ts";

// Output is written with Bun.write and awaited before exit: process.exit() would cut a pending pipe write short.
const pending: Promise<unknown>[] = [];
const print = (value: unknown) => {
  pending.push(Bun.write(Bun.stdout, (typeof value === "string" ? value : JSON.stringify(value, null, 2)) + "\n"));
};

async function withCore<T>(config: ServerConfig, work: (core: Core) => Promise<T>): Promise<T> {
  const core = await openCore(config);
  try {
    return await work(core);
  } finally {
    await core.store.close();
  }
}

const baseOf = (config: ServerConfig) => publicBaseUrl(config, config.port);

function readInput(path: string): unknown {
  const text = path === "-" ? readFileSync(0, "utf8") : readFileSync(path, "utf8");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

async function serve(args: string[]): Promise<number> {
  const config = loadServerConfig(args);
  const server = await startServer(config);
  if (server.adminToken) {
    print(`admin token (shown once; keep it, only its hash is stored): ${server.adminToken}`);
  }
  print(`inlet listening on ${server.url}`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      server.stop().then(resolve, resolve);
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
  return 0;
}

async function triggers(args: string[]): Promise<number> {
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
    source: "value",
    status: "value",
    since: "value",
    until: "value",
    limit: "value",
    "dry-run": "flag",
    "skip-filter": "flag",
  });
  const config = loadServerConfig(serverArgs);
  return withCore(config, async (core) => {
    switch (sub) {
      case "list":
        print(core.triggers.list().map((t) => presentTrigger(t, baseOf(config))));
        return 0;
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
        print(presentTrigger(await core.triggers.create(input), baseOf(config)));
        return 0;
      }
      case "show": {
        const t = core.triggers.get(positional[0] ?? "");
        if (!t) throw new UsageError(positional[0] ? `no trigger with id ${positional[0]}` : "triggers show needs a trigger id");
        print({ ...presentTrigger(t, baseOf(config)), ...(options.reveal ? { secret: t.secret } : {}) });
        return 0;
      }
      case "delete": {
        if (!positional[0]) throw new UsageError("triggers delete needs a trigger id");
        if (!(await core.triggers.delete(positional[0]))) throw new UsageError(`no trigger with id ${positional[0]}`);
        print(`deleted ${positional[0]}`);
        return 0;
      }
      case "replay":
        print(await replayTriggerCommand(core, config, positional[0], options));
        return 0;
      default:
        throw new UsageError(`unknown command 'triggers ${sub ?? ""}' (list, create, show, delete, replay)`);
    }
  });
}

async function runs(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { options, positional, serverArgs } = parseArgs(rest, { trigger: "value", limit: "value", before: "value", "include-trigger": "flag" });
  const config = loadServerConfig(serverArgs);
  return withCore(config, async (core) => {
    if (sub === "list") {
      const limit = options.limit ? Number(options.limit) : 50;
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError(`--limit must be a whole number from 1 to 500 (got ${options.limit})`);
      print(
        await core.store.listRuns({
          triggerId: options.trigger ? String(options.trigger) : undefined,
          limit,
          before: options.before ? String(options.before) : undefined,
          includeTrigger: options["include-trigger"] === true,
        }),
      );
      return 0;
    }
    if (sub === "show") {
      if (!positional[0]) throw new UsageError("runs show needs a run id");
      const run = await core.store.getRun(positional[0]);
      if (!run) throw new UsageError(`no run with id ${positional[0]}`);
      print(run);
      return 0;
    }
    if (sub === "replay") {
      print(await replayRunCommand(core, config, positional[0]));
      return 0;
    }
    throw new UsageError(`unknown command 'runs ${sub ?? ""}' (list, show, replay)`);
  });
}

async function plugins(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "new") {
    const { options, positional } = parseArgs(rest, { dir: "value" });
    if (!positional[0]) throw new UsageError("plugins new needs an id: inlet plugins new acme [--dir DIR]");
    const dir = String(options.dir ?? process.env.INLET_PLUGINS_DIR ?? "./inlet-plugins");
    try {
      for (const file of scaffoldPlugin(dir, positional[0])) print(`wrote ${file}`);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    print(`load it with: inlet serve --plugins-dir ${dir}`);
    return 0;
  }
  if (sub !== "list") throw new UsageError(`unknown command 'plugins ${sub ?? ""}' (list, new)`);
  const { positional, serverArgs } = parseArgs(rest, {});
  if (positional.length) throw new UsageError(`unexpected argument ${positional[0]}`);
  const config = loadServerConfig(serverArgs);
  return withCore(config, async (core) => {
    print(core.plugins.list().map((p) => ({ id: p.id, name: p.name, secret: p.secret, source: p.source })));
    return 0;
  });
}

async function sign(args: string[]): Promise<number> {
  const { options, positional, serverArgs } = parseArgs(args, { body: "value", "content-type": "value", key: "value", query: "value" });
  const config = loadServerConfig(serverArgs);
  if (!positional[0]) throw new UsageError("sign needs a trigger id: inlet sign TRIGGER_ID --body FILE");
  if (!options.body) throw new UsageError("sign needs --body FILE (the exact bytes to send; - for stdin)");
  return withCore(config, async (core) => {
    const trigger = core.triggers.get(positional[0]);
    if (!trigger) throw new UsageError(`no trigger with id ${positional[0]}`);
    print(
      await signedCurl(trigger, baseOf(config), core.plugins, {
        bodyFile: String(options.body),
        contentType: options["content-type"] ? String(options["content-type"]) : "application/json",
        keyFile: options.key ? String(options.key) : undefined,
        query: options.query ? String(options.query) : undefined,
      }),
    );
    return 0;
  });
}

/** Runs one CLI command; returns the exit code once its output is written. Errors are one line on stderr. */
export async function runCli(argv: string[]): Promise<number> {
  const code = await dispatch(argv);
  await Promise.all(pending.splice(0));
  return code;
}

async function dispatch(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case "serve":
        return await serve(args);
      case "triggers":
        return await triggers(args);
      case "runs":
        return await runs(args);
      case "plugins":
        return await plugins(args);
      case "sign":
        return await sign(args);
      case "migrate":
        return await migrate(args, print);
      case "version":
      case "--version":
        print(`inlet ${VERSION}`);
        return 0;
      case "help":
      case "--help":
      case "-h":
      case undefined:
        print(HELP);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command '${command}' (see 'inlet help')`);
    }
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    process.stderr.write(`inlet: ${message.split("\n")[0]}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}
