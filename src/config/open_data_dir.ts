import { statSync } from "node:fs";
import { resolve } from "node:path";

/** Read or write permission for group or others. */
const OPEN_TO_OTHERS = 0o066;

/**
 * The start-up warning for a data dir whose mode lets group or others read or write it, or null.
 * Its files are owner-only, but others could list them, or delete and replace them in a dir they
 * may write (README "Files and caching").
 *
 * @example
 * openDataDirWarning("/srv/inlet", 0o40755)
 * // "warning: data dir /srv/inlet has mode 0755: group or others may list or change what is in it; make it private with: chmod 700 /srv/inlet"
 * openDataDirWarning("/srv/inlet", 0o40700) // null
 */
export function openDataDirWarning(dir: string, mode: number): string | null {
  if ((mode & OPEN_TO_OTHERS) === 0) return null;
  const path = resolve(dir);
  const octal = (mode & 0o7777).toString(8).padStart(4, "0");
  return `warning: data dir ${path} has mode ${octal}: group or others may list or change what is in it; make it private with: chmod 700 ${shellWord(path)}`;
}

/** The warning for the data dir as it is on disk now; null when it is private or does not exist. */
export function dataDirWarning(dir: string): string | null {
  let mode: number;
  try {
    mode = statSync(dir).mode;
  } catch {
    return null;
  }
  return openDataDirWarning(dir, mode);
}

/** `path` as one shell word, quoted only when it needs to be, so that the command can be pasted. */
function shellWord(path: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
