/**
 * Bench only, preloaded into an inlet server (`bun --preload`): the SQLite store's commitIngest
 * answers at once and stores nothing. What is left is everything else an accepted request costs
 * (HTTP, authentication, dedup check, parse, filter, redaction, the run's record built, the
 * answer): the ceiling of inlet's request path with a store that cost nothing. Never used to serve.
 */
import { SqliteStore } from "../../src/store/sqlite/sqlite_store.ts";

SqliteStore.prototype.commitIngest = () => Promise.resolve({ deduplicated: false });
