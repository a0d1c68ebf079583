import { OPTIONS } from "../config/server_config.ts";

export const HELP = `inlet — a self-hosted webhook trigger service

Usage:
  inlet serve [flags]                        start the server
  inlet triggers list [--json] [flags]       list triggers: a table (name, id, auth, methods, workflow, URL);
                                             --json: the API's Trigger objects
  inlet triggers create --name NAME [--auth TYPE] [--methods POST|GET|GET,POST]
                        [--header-name NAME] [--signature-header NAME] [--encoding hex|base64]
                        [--app ID] [--app-secret SECRET] [--input FILE|-] [flags]
                                             create a trigger (--input: a TriggerInput JSON document)
  inlet triggers show ID [--reveal] [flags]  one trigger; --reveal adds its generated secret
  inlet triggers delete ID [flags]           delete a trigger
  inlet triggers rotate ID [--overlap SECONDS] [--app-secret SECRET] [flags]
                                             a new secret; the previous one verifies for SECONDS more
  inlet triggers arm ID [flags]              for 15 minutes the provider's next handshake may set (or replace)
                                             the secret of an Asana or Notion trigger (trust on first use)
  inlet triggers replay ID [--status failed[,succeeded…]] [--source runs|filtered] [--since ISO]
                        [--until ISO] [--limit N] [--skip-filter] [--dry-run] [flags]
                                             replay a trigger's runs (failed ones unless --status says)
                                             or filtered requests, oldest first, each request once
  inlet runs list [--trigger ID] [--limit N] [--before ID] [--include-trigger] [flags]
  inlet runs show ID [flags]
  inlet runs replay ID [flags]               a new run with the same $trigger, by the current workflow
  inlet plugins list [flags]                 app-trigger plugins (built-in and --plugins-dir)
  inlet plugins new ID [--dir DIR]           scaffold a plugin and its test (default dir: --plugins-dir, else
                                             ~/inlet-plugins)
  inlet sign TRIGGER_ID --body FILE [--content-type TYPE] [--key FILE] [--query Q] [--base-url URL]
                                             print a correctly signed curl command for the trigger
  inlet migrate [--database-url URL | --data-dir DIR]
                                             apply pending schema migrations (before rolling out instances)
  inlet migrate --from-data-dir DIR --database-url URL
                                             copy a SQLite data dir into an empty PostgreSQL database, in one
                                             transaction (stop the server on DIR first); then start every
                                             instance with INLET_SECRET_KEY = the content of DIR/secret.key
  inlet admin-token reset [flags]            print a new admin token (once) and store its hash; the old one
                                             stops working on running servers within a second
  inlet version
  inlet help [COMMAND]                       this help, or one command's (as inlet COMMAND --help)

Flags (each with an environment twin):
${OPTIONS.map((o) => `  ${(o.flag || "(env only)").padEnd(18)} ${o.env.padEnd(22)} ${o.help}${o.fallback !== undefined ? ` [default ${o.fallback}]` : ""}`).join("\n")}
  INLET_ADMIN_TOKEN_FILE, INLET_SECRET_KEY_FILE, INLET_DATABASE_URL_FILE: a file whose content is the value
  (one trailing newline removed), which keeps it out of the environment command workflows can read
`;

/** The usage lines of one command (`inlet triggers --help`), with the flags every command takes. */
export function helpFor(command: string): string {
  const lines = HELP.split("\n");
  const flagsAt = lines.findIndex((l) => l.startsWith("Flags"));
  const usage: string[] = [];
  let mine = false;
  for (const line of lines.slice(0, flagsAt)) {
    if (line.startsWith(`  inlet ${command}`)) mine = true;
    else if (line.startsWith("  inlet ")) mine = false;
    if (mine) usage.push(line);
  }
  return ["Usage:", ...usage, "", ...lines.slice(flagsAt)].join("\n");
}
