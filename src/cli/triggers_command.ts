import { UsageError } from "../config/usage_error.ts";
import { presentTrigger } from "../triggers/present.ts";
import type { ParsedArgs } from "./args.ts";
import { baseUrlOf } from "./base_url_of.ts";
import { print } from "./output.ts";
import { readInput } from "./read_input.ts";
import { replayTriggerCommand } from "./replay_command.ts";
import { triggersTable } from "./triggers_table.ts";
import { onDataOf } from "./with_core.ts";

type Options = ParsedArgs["options"];

/** `inlet triggers list [--json]`. */
export const listTriggers = ({ options, serverArgs }: ParsedArgs) =>
  onDataOf(serverArgs, async (core) => {
    const base = await baseUrlOf(core);
    const list = core.triggers.list();
    print(options.json ? list.map((t) => presentTrigger(t, base)) : triggersTable(list, base, (id) => core.plugins.has(id)));
  });

/** The TriggerInput `inlet triggers create` sends: `--input`'s document, with the flags given over it. */
function triggerInputOf(options: Options): Record<string, unknown> {
  const input: Record<string, unknown> = options.input ? (readInput(String(options.input)) as Record<string, unknown>) : {};
  if (options.name) input.name = options.name;
  if (options.methods)
    input.methods = String(options.methods)
      .split(",")
      .map((m) => m.trim().toUpperCase());
  if (options.app) input.app = options.app;
  if (options["app-secret"]) input.appSecret = options["app-secret"];
  const auth: Record<string, unknown> = { ...((input.auth as object) ?? {}) };
  if (options.auth) auth.type = options.auth;
  if (options["header-name"]) auth.headerName = options["header-name"];
  if (options["signature-header"]) auth.signatureHeader = options["signature-header"];
  if (options.encoding) auth.encoding = options.encoding;
  if (Object.keys(auth).length) input.auth = auth;
  return input;
}

/** `inlet triggers create --name NAME …`. */
export const createTrigger = ({ options, serverArgs }: ParsedArgs) =>
  onDataOf(serverArgs, async (core) => {
    print(presentTrigger(await core.triggers.create(triggerInputOf(options)), await baseUrlOf(core)));
  });

/** `inlet triggers show ID [--reveal]`. */
export const showTrigger = ({ options, positional, serverArgs }: ParsedArgs) =>
  onDataOf(serverArgs, async (core) => {
    const t = core.triggers.get(positional[0] ?? "");
    if (!t) throw new UsageError(positional[0] ? `no trigger with id ${positional[0]}` : "triggers show needs a trigger id");
    print({ ...presentTrigger(t, await baseUrlOf(core)), ...(options.reveal ? { secret: t.secret } : {}) });
  });

/** `inlet triggers delete ID`. */
export const deleteTrigger = ({ positional: [id], serverArgs }: ParsedArgs) =>
  onDataOf(serverArgs, async (core) => {
    if (!id) throw new UsageError("triggers delete needs a trigger id");
    if (!(await core.triggers.delete(id))) throw new UsageError(`no trigger with id ${id}`);
    print(`deleted ${id}`);
  });

/** `inlet triggers rotate ID [--overlap SECONDS] [--app-secret SECRET]`. */
export const rotateTrigger = ({ options, positional, serverArgs }: ParsedArgs) =>
  onDataOf(serverArgs, async (core) => {
    if (!positional[0]) throw new UsageError("triggers rotate needs a trigger id: inlet triggers rotate ID [--overlap SECONDS]");
    const overlap = options.overlap === undefined ? 0 : Number(options.overlap);
    if (!Number.isInteger(overlap) || overlap < 0 || overlap > 604_800)
      throw new UsageError(`--overlap must be a whole number of seconds from 0 to 604800 (got ${options.overlap})`);
    const rotated = await core.triggers.rotate(positional[0], {
      overlapSeconds: overlap,
      ...(options["app-secret"] ? { appSecret: String(options["app-secret"]) } : {}),
    });
    if (!rotated) throw new UsageError(`no trigger with id ${positional[0]}`);
    print({ ...(rotated.secret ? { secret: rotated.secret } : {}), previousExpiresAt: rotated.previousExpiresAt });
  });

/** `inlet triggers arm ID`. */
export const armTrigger = ({ positional: [id], serverArgs }: ParsedArgs) =>
  onDataOf(serverArgs, async (core) => {
    if (!id) throw new UsageError("triggers arm needs a trigger id: inlet triggers arm ID");
    const armed = await core.triggers.arm(id);
    if (!armed) throw new UsageError(`no trigger with id ${id}`);
    if (armed.kind === "not_armable") throw new Error(armed.message);
    print({ armedUntil: armed.armedUntil });
  });

/** `inlet triggers replay ID [--status …] [--source …] …`. */
export const replayTrigger = ({ options, positional, serverArgs }: ParsedArgs) =>
  onDataOf(serverArgs, async (core, config) => print(await replayTriggerCommand(core, config, positional[0], options)));
