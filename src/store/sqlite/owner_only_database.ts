import { ownerOnlyFile, tightenToOwner } from "../../config/owner_only_file.ts";

/** The files SQLite may keep beside a database file, named by their suffix. */
const COMPANIONS = ["-wal", "-shm", "-journal"];

/**
 * Before SQLite opens the database file at `path`: the file exists with mode 0600, so that the
 * companions SQLite creates take that mode, and companions left by an older inlet (0644) are
 * tightened, since SQLite keeps the mode of a file that is already there.
 */
export function ownerOnlyDatabase(path: string): void {
  ownerOnlyFile(path);
  for (const suffix of COMPANIONS) tightenToOwner(path + suffix);
}
