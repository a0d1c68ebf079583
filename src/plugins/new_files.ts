import { closeSync, lstatSync, mkdirSync, openSync, unlinkSync, writeSync, type Stats } from "node:fs";

/** Why `inlet plugins new` wrote nothing. */
export type ScaffoldRefusal = "exists" | "symlink" | "not_a_directory";

/** `inlet plugins new` would have written over a file or through a symbolic link; nothing was written. */
export class ScaffoldRefused extends Error {
  override name = "ScaffoldRefused";
  constructor(
    readonly code: ScaffoldRefusal,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

function entryAt(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

const symlinkAt = (path: string) =>
  new ScaffoldRefused("symlink", path, `${path} is a symbolic link: nothing written (inlet plugins new never writes through one; give the real path)`);
const existsAt = (path: string) => new ScaffoldRefused("exists", path, `${path} already exists: nothing written (move it away or choose another --dir)`);

/** `dir` as a real directory: created when missing, refused when it is a symbolic link (even to a directory) or a file. */
function realDirectory(dir: string): void {
  if (entryAt(dir) === null) mkdirSync(dir, { recursive: true });
  const entry = entryAt(dir)!;
  if (entry.isSymbolicLink()) throw symlinkAt(dir);
  if (!entry.isDirectory()) throw new ScaffoldRefused("not_a_directory", dir, `${dir} is not a directory: nothing written`);
}

/**
 * Writes new files into `dir`, all or none: a path that exists in any form (a file, a directory,
 * a symbolic link, even a dangling one) is refused before anything is written, and each file is
 * created exclusively (`O_CREAT|O_EXCL`: never through a link planted meanwhile), the ones already
 * written removed again if a later one is refused.
 *
 * @example
 * ```ts
 * writeNewFiles("./my-plugins", [{ path: "./my-plugins/acme.ts", content: "export default {}" }]);
 * ```
 */
export function writeNewFiles(dir: string, files: Array<{ path: string; content: string }>): void {
  realDirectory(dir);
  for (const { path } of files) {
    const entry = entryAt(path);
    if (entry) throw entry.isSymbolicLink() ? symlinkAt(path) : existsAt(path);
  }
  const written: string[] = [];
  try {
    for (const { path, content } of files) {
      let fd: number;
      try {
        fd = openSync(path, "wx");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") throw entryAt(path)?.isSymbolicLink() ? symlinkAt(path) : existsAt(path);
        throw error;
      }
      written.push(path);
      try {
        writeSync(fd, content);
      } finally {
        closeSync(fd);
      }
    }
  } catch (error) {
    for (const path of written) unlinkSync(path);
    throw error;
  }
}
