/** Numbered schema migrations, applied once each, in order. Never edit a released one: add the next. */
export const MIGRATIONS: Array<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: "triggers, runs, activity, dedup keys",
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE triggers (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        token TEXT NOT NULL UNIQUE,
        config TEXT NOT NULL,
        secret_sealed TEXT,
        app_secret_sealed TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE runs (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        trigger_id TEXT NOT NULL,
        request_id TEXT NOT NULL,
        status TEXT NOT NULL,
        trigger_json TEXT NOT NULL,
        result_json TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        created_at TEXT NOT NULL,
        finished_at TEXT,
        created_ms INTEGER NOT NULL
      );
      CREATE INDEX runs_by_trigger ON runs (trigger_id, seq);
      CREATE INDEX runs_by_status ON runs (status, seq);
      CREATE TABLE activity (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        trigger_id TEXT NOT NULL,
        at TEXT NOT NULL,
        at_ms INTEGER NOT NULL,
        request_id TEXT NOT NULL,
        outcome TEXT NOT NULL,
        run_id TEXT,
        detail TEXT
      );
      CREATE INDEX activity_by_trigger ON activity (trigger_id, seq);
      CREATE INDEX activity_by_time ON activity (at_ms);
      CREATE TABLE dedup_keys (
        trigger_id TEXT NOT NULL,
        key_hash TEXT NOT NULL,
        expires_ms INTEGER NOT NULL,
        PRIMARY KEY (trigger_id, key_hash)
      ) WITHOUT ROWID;
      CREATE INDEX dedup_by_expiry ON dedup_keys (expires_ms);
      INSERT INTO meta (key, value) VALUES ('triggers_revision', '0');
    `,
  },
  {
    version: 2,
    name: "run leases",
    sql: `
      ALTER TABLE runs ADD COLUMN lease_owner TEXT;
      ALTER TABLE runs ADD COLUMN lease_until_ms INTEGER;
    `,
  },
];
