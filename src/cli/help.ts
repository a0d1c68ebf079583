import { COMMANDS } from "./command_table.ts";
import { helpOn, helpText } from "./help_text.ts";

/** `inlet help`: every command of the table, then the flags every command takes. */
export const HELP = helpText(COMMANDS);

/** The usage lines of one command or group (`inlet triggers --help`), with the flags every command takes. */
export const helpFor = (topic: string): string => helpOn(COMMANDS, topic);
