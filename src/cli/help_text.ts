import { OPTIONS } from "../config/server_config.ts";
import type { CliCommand, UsageForm } from "./command.ts";

/** Where descriptions start: after the usage when it ends before, else on the lines under it. */
const DESCRIPTION_COLUMN = 45;

const FLAGS = `Flags (each with an environment twin):
${OPTIONS.map((o) => `  ${(o.flag || "(env only)").padEnd(18)} ${o.env.padEnd(22)} ${o.help}${o.fallback !== undefined ? ` [default ${o.fallback}]` : ""}`).join("\n")}
  INLET_ADMIN_TOKEN_FILE, INLET_SECRET_KEY_FILE, INLET_DATABASE_URL_FILE: a file whose content is the value
  (one trailing newline removed), which keeps it out of the environment command workflows can read
`;

function formLines(name: string, { usage, description }: UsageForm): string[] {
  const command = `  inlet ${name}`;
  const under = " ".repeat(command.length + 1);
  const lines = usage.length ? [`${command} ${usage[0]}`, ...usage.slice(1).map((words) => under + words)] : [command];
  const about = [...description];
  const last = lines.length - 1;
  // Beside the usage when at least two spaces are left before the column.
  if (about.length && lines[last].length <= DESCRIPTION_COLUMN - 2) lines[last] = lines[last].padEnd(DESCRIPTION_COLUMN) + about.shift();
  return [...lines, ...about.map((line) => " ".repeat(DESCRIPTION_COLUMN) + line)];
}

/** A command's usage lines: each of its forms, with what it does. */
export const usageLines = (command: CliCommand): string[] =>
  [command, ...(command.alsoForm ? [command.alsoForm] : [])].flatMap((form) => formLines(command.name, form));

/** Whether `inlet help TOPIC` has something to show: a command (`sign`, `triggers list`) or a group (`triggers`). */
export const isHelpTopic = (commands: readonly CliCommand[], topic: string) => commands.some((c) => c.name === topic || c.name.startsWith(`${topic} `));

/** `inlet help`: every command, then the flags every command takes. */
export const helpText = (commands: readonly CliCommand[]) =>
  `inlet — a self-hosted webhook trigger service

Usage:
${commands.flatMap(usageLines).join("\n")}

${FLAGS}`;

/** The usage lines of one command or group (`inlet triggers --help`), with the flags every command takes. */
export function helpOn(commands: readonly CliCommand[], topic: string): string {
  const mine = commands.filter((c) => c.name === topic || c.name.startsWith(`${topic} `));
  return `Usage:\n${mine.flatMap(usageLines).join("\n")}\n\n${FLAGS}`;
}
