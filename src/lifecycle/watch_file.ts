import { createHash } from "node:crypto";
import { readFileSync, statSync, watch, type FSWatcher } from "node:fs";
import { dirname } from "node:path";
import { every } from "./every.ts";

export interface FileWatchOptions {
  /** The content already handled (e.g. applied at start): not delivered again. Absent: the first read is delivered. */
  initial?: string;
  /**
   * How long the folder must be quiet before the file is read: an editor or `git` has finished
   * writing by then, so a file written in several steps is read once, whole.
   */
  debounceMs?: number;
  /**
   * How often the file's identity (inode, size, modification time) is looked at anyway: a change
   * the folder's watch missed (the folder itself replaced, a network file system) is still seen.
   */
  pollMs?: number;
  /** A read or a delivery that failed (the watch goes on; a failed delivery is tried again at the next poll). */
  onError?: (error: unknown) => void;
}

export interface FileWatch {
  /** Reads the file now (after any read in progress) and delivers it if it changed. */
  check(): Promise<void>;
  /** No more reads; waits for a delivery in progress. */
  stop(): Promise<void>;
}

const digest = (text: string) => createHash("sha256").update(text).digest("hex");

/** The file's text, or null when it is not there. */
function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}

/** What changes when a file is written in place or replaced: its inode, size and modification time. */
function identity(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return "missing";
  }
}

/**
 * Calls `onChange` with a file's text whenever it differs from the last text delivered — written
 * in place, or replaced by a rename as editors, `git pull` and a Kubernetes ConfigMap's symlink
 * swap do (the folder is watched, not the file's inode, which a rename leaves behind) — and with
 * null once when the file is gone. A file that appears again is delivered even when its text is
 * the one it had. Deliveries never overlap; one that throws is tried again at the next poll.
 *
 * @example
 * ```ts
 * const watching = watchFile("/etc/inlet/inlet.yaml", (text) => (text === null ? warnGone() : apply(text)), { initial: appliedAtStart });
 * // … on shutdown:
 * await watching.stop();
 * ```
 */
export function watchFile(path: string, onChange: (text: string | null) => unknown, options: FileWatchOptions = {}): FileWatch {
  const debounceMs = options.debounceMs ?? 300;
  const onError = options.onError ?? (() => {});
  /** The digest of the text last delivered; null: "gone" was; undefined: nothing yet. */
  let delivered: string | null | undefined = options.initial === undefined ? undefined : digest(options.initial);
  let stopped = false;
  let reading: Promise<void> = Promise.resolve();
  let quiet: ReturnType<typeof setTimeout> | undefined;
  let folder: FSWatcher | null = null;
  let seen = identity(path);

  /** A delivery failed: the poll delivers the file again, until one succeeds. */
  let failed = false;

  const read = async () => {
    const text = readOrNull(path);
    const now = text === null ? null : digest(text);
    if (now === delivered && !failed) return;
    const before = delivered;
    delivered = now;
    failed = false;
    try {
      await onChange(text);
    } catch (error) {
      delivered = before;
      failed = true;
      throw error;
    }
  };
  const check = (): Promise<void> => {
    if (stopped) return reading;
    reading = reading.then(read).catch(onError);
    return reading;
  };
  const soon = () => {
    if (stopped) return;
    clearTimeout(quiet);
    quiet = setTimeout(() => void check(), debounceMs);
    (quiet as { unref?(): void }).unref?.();
  };
  const watchFolder = () => {
    try {
      // Any name: a rename into place, or a symlink swap, is an event of another entry.
      folder = watch(dirname(path), { persistent: false }, soon);
      folder.on("error", () => {
        folder?.close();
        folder = null;
      });
    } catch {
      folder = null; // the folder is not there (yet): the poll looks again
    }
  };
  watchFolder();
  const poll = every(options.pollMs ?? 1000, () => {
    if (!folder) watchFolder();
    const now = identity(path);
    if (now !== seen || failed) {
      seen = now;
      soon();
    }
  });
  void check();

  return {
    check,
    async stop() {
      stopped = true;
      clearTimeout(quiet);
      folder?.close();
      await poll.stop();
      await reading;
    },
  };
}
