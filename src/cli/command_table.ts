import { resetAdminTokenCommand } from "./admin_token_command.ts";
import type { CliCommand, CommandFlag } from "./command.ts";
import { help } from "./help_command.ts";
import { migrate } from "./migrate.ts";
import { print } from "./output.ts";
import { listPlugins, newPlugin } from "./plugins_command.ts";
import { listRuns, replayRun, showRun } from "./runs_command.ts";
import { serve } from "./serve_command.ts";
import { sign } from "./sign_command.ts";
import { applyFile, diffFile } from "./apply_command.ts";
import { exportFile } from "./export_command.ts";
import { listDestinations, pauseDestination } from "./destinations_command.ts";
import { armTrigger, createTrigger, deleteTrigger, listTriggers, replayTrigger, rotateTrigger, showTrigger } from "./triggers_command.ts";
import { version } from "./version_command.ts";

const CONFIG_FILE: CommandFlag = { name: "file", short: "f", value: "FILE", help: "the config file (YAML or JSON, by its extension)" };
const APP_SECRET: CommandFlag = { name: "app-secret", value: "SECRET", help: "the secret the provider's app gave (an app trigger)" };

/**
 * Every command of `inlet`, in the order `inlet help` lists them. The dispatcher finds a command
 * here, the help prints these usages, and a command's flags are read by what its entry lists.
 */
export const COMMANDS: readonly CliCommand[] = [
  { name: "serve", usage: ["[flags]"], description: ["start the server"], reads: "server flags", flags: [], takes: 0, run: serve },
  {
    name: "triggers list",
    usage: ["[--json] [flags]"],
    description: ["list triggers: a table (name, id, auth, methods, workflow, URL);", "--json: the API's Trigger objects"],
    reads: "flags",
    flags: [{ name: "json", help: "the API's Trigger objects instead of a table" }],
    takes: 0,
    takesSiblingFlags: true,
    run: listTriggers,
  },
  {
    name: "triggers create",
    usage: [
      "--name NAME [--auth TYPE] [--methods POST|GET|GET,POST]",
      "[--header-name NAME] [--signature-header NAME] [--encoding hex|base64]",
      "[--app ID] [--app-secret SECRET] [--input FILE|-] [flags]",
    ],
    description: ["create a trigger (--input: a TriggerInput JSON document)"],
    reads: "flags",
    flags: [
      { name: "name", value: "NAME", help: "the trigger's name" },
      { name: "auth", value: "TYPE", help: "how callers authenticate (auth.type)" },
      { name: "methods", value: "POST|GET|GET,POST", help: "the HTTP methods it accepts" },
      { name: "header-name", value: "NAME", help: "the header that carries the token (auth.headerName)" },
      { name: "signature-header", value: "NAME", help: "the header that carries the signature (auth.signatureHeader)" },
      { name: "encoding", value: "hex|base64", help: "how the signature is encoded (auth.encoding)" },
      { name: "app", value: "ID", help: "the app-trigger plugin it uses" },
      APP_SECRET,
      { name: "input", value: "FILE|-", help: "a TriggerInput JSON document (- for stdin); the flags above win over it" },
    ],
    takes: 0,
    takesSiblingFlags: true,
    run: createTrigger,
  },
  {
    name: "triggers show",
    usage: ["ID [--reveal] [flags]"],
    description: ["one trigger; --reveal adds its generated secret"],
    reads: "flags",
    flags: [{ name: "reveal", help: "add its generated secret" }],
    takes: 1,
    takesSiblingFlags: true,
    run: showTrigger,
  },
  { name: "triggers delete", usage: ["ID [flags]"], description: ["delete a trigger"], reads: "flags", flags: [], takes: 1, takesSiblingFlags: true, run: deleteTrigger },
  {
    name: "triggers rotate",
    usage: ["ID [--overlap SECONDS] [--app-secret SECRET] [flags]"],
    description: ["a new secret; the previous one verifies for SECONDS more"],
    reads: "flags",
    flags: [{ name: "overlap", value: "SECONDS", help: "how long the previous secret still verifies (0 to 604800)" }, APP_SECRET],
    takes: 1,
    takesSiblingFlags: true,
    run: rotateTrigger,
  },
  {
    name: "triggers arm",
    usage: ["ID [flags]"],
    description: ["for 15 minutes the provider's next handshake may set (or replace)", "the secret of an Asana or Notion trigger (trust on first use)"],
    reads: "flags",
    flags: [],
    takes: 1,
    takesSiblingFlags: true,
    run: armTrigger,
  },
  {
    name: "triggers replay",
    usage: ["ID [--status failed[,succeeded…]] [--source runs|filtered] [--since ISO]", "[--until ISO] [--limit N] [--skip-filter] [--dry-run] [flags]"],
    description: ["replay a trigger's runs (failed ones unless --status says)", "or filtered requests, oldest first, each request once"],
    reads: "flags",
    flags: [
      { name: "status", value: "failed[,succeeded…]", help: "the statuses of the runs to replay" },
      { name: "source", value: "runs|filtered", help: "its runs, or the requests its filter turned away" },
      { name: "since", value: "ISO", help: "from this time" },
      { name: "until", value: "ISO", help: "up to this time" },
      { name: "limit", value: "N", help: "at most N requests" },
      { name: "skip-filter", help: "bypass the current filter (filtered requests only)" },
      { name: "dry-run", help: "say what would be replayed, replay nothing" },
    ],
    takes: 1,
    takesSiblingFlags: true,
    run: replayTrigger,
  },
  {
    name: "destinations list",
    usage: ["TRIGGER_ID [--json] [flags]"],
    description: ["each destination of a trigger: its state (ok, open, half-open,", "paused), its queued and running runs; --json: the API's objects"],
    reads: "flags",
    flags: [{ name: "json", help: "the API's objects instead of a table" }],
    takes: 1,
    run: listDestinations,
  },
  {
    name: "destinations pause",
    usage: ["TRIGGER_ID NAME [flags]"],
    description: ["requests are still accepted and its runs made, but they wait", "until it is resumed (on every instance, across restarts)"],
    reads: "flags",
    flags: [],
    takes: 2,
    run: pauseDestination(true),
  },
  {
    name: "destinations resume",
    usage: ["TRIGGER_ID NAME [flags]"],
    description: ["its waiting runs start again, in order, under its limits"],
    reads: "flags",
    flags: [],
    takes: 2,
    run: pauseDestination(false),
  },
  {
    name: "runs list",
    usage: ["[--trigger ID] [--limit N] [--before ID] [--include-trigger] [flags]"],
    description: [],
    reads: "flags",
    flags: [
      { name: "trigger", value: "ID", help: "one trigger's runs" },
      { name: "limit", value: "N", help: "at most N runs (1 to 500, default 50)" },
      { name: "before", value: "ID", help: "the runs before this one (the next page)" },
      { name: "include-trigger", help: "each run with the request it was for ($trigger)" },
    ],
    takes: 0,
    takesSiblingFlags: true,
    run: listRuns,
  },
  { name: "runs show", usage: ["ID [flags]"], description: [], reads: "flags", flags: [], takes: 1, takesSiblingFlags: true, run: showRun },
  {
    name: "runs replay",
    usage: ["ID [flags]"],
    description: ["a new run with the same $trigger, by the current workflow"],
    reads: "flags",
    flags: [],
    takes: 1,
    takesSiblingFlags: true,
    run: replayRun,
  },
  {
    name: "apply",
    usage: ["-f FILE [--dry-run] [flags]"],
    description: ["make the triggers what a config file says, in one transaction;", "prints the plan (+ create, ~ update, = unchanged, - delete)"],
    reads: "flags",
    flags: [CONFIG_FILE, { name: "dry-run", help: "print the plan, change nothing" }],
    takes: 0,
    run: applyFile,
  },
  {
    name: "diff",
    usage: ["-f FILE [flags]"],
    description: ["the plan alone; exit 0: nothing would change, 2: something", "would, 1: an error (for CI)"],
    reads: "flags",
    flags: [CONFIG_FILE],
    takes: 0,
    failureExit: 1,
    run: diffFile,
  },
  {
    name: "export",
    usage: ["[-o FILE] [flags]"],
    description: ["every trigger as a config file, tokens and secrets as", "${INLET_…} placeholders (YAML on stdout; -o: by its extension)"],
    reads: "flags",
    flags: [{ name: "output", short: "o", value: "FILE", help: "write it there (.yaml, .yml or .json)" }],
    takes: 0,
    run: exportFile,
  },
  { name: "plugins list", usage: ["[flags]"], description: ["app-trigger plugins (built-in and --plugins-dir)"], reads: "flags", flags: [], takes: 0, run: listPlugins },
  {
    name: "plugins new",
    usage: ["ID [--dir DIR]"],
    description: ["scaffold a plugin and its test (default dir: --plugins-dir, else", "~/inlet-plugins)"],
    reads: "flags",
    flags: [{ name: "dir", value: "DIR", help: "where to write it" }],
    takes: 1,
    run: newPlugin,
  },
  {
    name: "sign",
    usage: ["TRIGGER_ID --body FILE [--content-type TYPE] [--key FILE] [--query Q] [--base-url URL]"],
    description: ["print a correctly signed curl command for the trigger"],
    reads: "flags",
    flags: [
      { name: "body", value: "FILE", help: "the exact bytes to send (- for stdin)" },
      { name: "content-type", value: "TYPE", help: "its Content-Type (default application/json)" },
      { name: "key", value: "FILE", help: "the signing key: a PEM private key for a JWT trigger, else a file holding the secret" },
      { name: "query", value: "Q", help: "a query string to add to the URL" },
    ],
    takes: 1,
    run: sign,
  },
  {
    name: "migrate",
    usage: ["[--database-url URL | --data-dir DIR]"],
    description: ["apply pending schema migrations (before rolling out instances)"],
    alsoForm: {
      usage: ["--from-data-dir DIR --database-url URL"],
      description: [
        "copy a SQLite data dir into an empty PostgreSQL database, in one",
        "transaction (stop the server on DIR first); then start every",
        "instance with INLET_SECRET_KEY = the content of DIR/secret.key",
      ],
    },
    reads: "flags",
    flags: [{ name: "from-data-dir", value: "DIR", help: "the SQLite data dir to copy into --database-url" }],
    takes: 0,
    extraHint: "see 'inlet help'",
    run: (args) => migrate(args, print),
  },
  {
    name: "admin-token reset",
    usage: ["[flags]"],
    description: ["print a new admin token (once) and store its hash; the old one", "stops working on running servers within a second"],
    reads: "flags",
    flags: [],
    takes: 0,
    extraHint: "inlet admin-token reset [--data-dir DIR | --database-url URL]",
    run: resetAdminTokenCommand,
  },
  { name: "version", usage: [], description: [], reads: "words", flags: [], takes: 0, run: version },
  { name: "help", usage: ["[COMMAND]"], description: ["this help, or one command's (as inlet COMMAND --help)"], reads: "words", flags: [], takes: 1, run: help },
];
