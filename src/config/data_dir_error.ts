import { resolve } from "node:path";

/** The data dir (or a file in it) cannot be used: one line naming the path and what to do. */
export class DataDirUnusable extends Error {
  override name = "DataDirUnusable";
  readonly code = "data_dir_unusable";
}

/**
 * Turns a file-system or SQLite failure while opening the data dir into a message that names
 * the absolute path and the fix; other errors come back as they are.
 */
export function explainDataDirError(error: unknown, dataDir: string): unknown {
  const e = error as { code?: string; path?: string; message?: string } | null;
  const dir = resolve(dataDir);
  const path = e?.path ? resolve(e.path) : dir;
  const fix = `choose a writable --data-dir (INLET_DATA_DIR), or give the user running inlet write access to ${dir}`;
  switch (e?.code) {
    case "EACCES":
    case "EPERM":
      return new DataDirUnusable(`data dir ${dir}: permission denied on ${path}: ${fix}`);
    case "EROFS":
      return new DataDirUnusable(`data dir ${dir} is on a read-only file system: ${fix}`);
    case "ENOSPC":
      return new DataDirUnusable(`data dir ${dir}: no space left on the device: free some space or move the data dir`);
    case "EEXIST":
    case "ENOTDIR":
      return new DataDirUnusable(`data dir ${dir}: ${path} is a file, not a directory: point --data-dir at a directory`);
    case "EISDIR":
      // Bun names no path here: one of the two files inlet keeps in the data dir.
      return new DataDirUnusable(
        `data dir ${dir}: ${e.path ? path : "its inlet.db or secret.key"} is a directory, not a file: move it away or point --data-dir elsewhere`,
      );
  }
  if (/file is not a database|database disk image is malformed/i.test(e?.message ?? "")) {
    return new DataDirUnusable(
      `data dir ${dir}: ${resolve(dir, "inlet.db")} is not an inlet database (${e?.message}): point --data-dir at inlet's data dir, or move that file away`,
    );
  }
  if (/readonly database|read-only|unable to open database file/i.test(e?.message ?? "")) {
    return new DataDirUnusable(`data dir ${dir}: the database ${resolve(dir, "inlet.db")} cannot be written (${e?.message}): ${fix}`);
  }
  return error;
}
