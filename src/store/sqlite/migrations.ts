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
  {
    version: 6,
    name: "replay and ordering: runs remember what they replay, their lane and ordering key; filtered rows keep their request",
    sql: `
      ALTER TABLE runs ADD COLUMN replay_of TEXT;
      ALTER TABLE runs ADD COLUMN lane INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE runs ADD COLUMN ordering_key TEXT;
      ALTER TABLE activity ADD COLUMN request_json TEXT;
      CREATE INDEX runs_queue ON runs (status, lane, seq);
      CREATE INDEX runs_by_ordering_key ON runs (trigger_id, ordering_key, seq) WHERE ordering_key IS NOT NULL;
      CREATE INDEX runs_by_trigger_time ON runs (trigger_id, created_ms);
      CREATE INDEX activity_by_trigger_time ON activity (trigger_id, outcome, at_ms);
    `,
  },
  {
    version: 7,
    name: "alerts: one state machine per rule, and an outbox of notifications",
    sql: `
      CREATE TABLE alerts (
        id TEXT PRIMARY KEY, trigger_id TEXT NOT NULL, kind TEXT NOT NULL, state TEXT NOT NULL,
        since TEXT NOT NULL, value REAL NOT NULL, threshold REAL NOT NULL, notified_at TEXT
      );
      CREATE TABLE alert_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, alert_id TEXT NOT NULL, payload TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0, next_ms INTEGER NOT NULL, delivered_at TEXT, lease_owner TEXT, lease_until_ms INTEGER
      );
      CREATE INDEX alert_outbox_due ON alert_outbox (next_ms) WHERE delivered_at IS NULL;
      CREATE INDEX runs_by_trigger_status ON runs (trigger_id, status);
    `,
  },
  {
    version: 8,
    name: "retention by age: runs indexed by creation time; runs_by_status dropped (runs_queue serves its queries)",
    // The retention sweep found old finished runs through their status, reading every finished
    // run (and the overflow pages of large ones) once a minute on the request thread.
    sql: `
      CREATE INDEX runs_by_age ON runs (created_ms);
      DROP INDEX runs_by_status;
    `,
  },
  {
    version: 9,
    name: "bulk replay takes each request's latest attempt: runs indexed by what they replay (replays only)",
    sql: `
      CREATE INDEX runs_by_replay_of ON runs (replay_of) WHERE replay_of IS NOT NULL;
    `,
  },
  {
    version: 10,
    name: "dedup keys in expiry order: a claim is appended, not written on a random leaf; the store keeps the index of live keys in memory",
    // Keyed by (trigger, key) every claim dirtied a random page of a B-tree larger than the cache:
    // about half the store's cost per request. Keyed by expiry first, claims land at the end (one
    // place per window length) and the sweep deletes from the front; the serving process answers
    // "is this key new?" from its in-memory index (DedupIndex) and confirms a match here.
    sql: `
      ALTER TABLE dedup_keys RENAME TO dedup_keys_by_key;
      CREATE TABLE dedup_keys (
        expires_ms INTEGER NOT NULL,
        trigger_id TEXT NOT NULL,
        key_hash TEXT NOT NULL,
        PRIMARY KEY (expires_ms, trigger_id, key_hash)
      ) WITHOUT ROWID;
      INSERT INTO dedup_keys (expires_ms, trigger_id, key_hash) SELECT expires_ms, trigger_id, key_hash FROM dedup_keys_by_key;
      DROP TABLE dedup_keys_by_key;
    `,
  },
  {
    version: 11,
    name: "bulk replay selects one row per request, its latest attempt: replays and Filtered rows indexed by request",
    // Bulk replay looks for later runs and later Filtered rows of a candidate's request. Both
    // indexes are partial so that live requests do not pay for them: replays are the only runs in
    // the first (runs_by_replay_of goes: the selection no longer looks runs up by what they replay,
    // and nothing else did), and a request that is
    // filtered writes the second, one that runs does not. (The rowid, seq, is in every entry.)
    sql: `
      DROP INDEX runs_by_replay_of;
      CREATE INDEX runs_replays_by_request ON runs (request_id) WHERE replay_of IS NOT NULL;
      CREATE INDEX activity_filtered_by_request ON activity (request_id) WHERE outcome = 'filtered';
    `,
  },
  {
    version: 12,
    name: "bounded refusals: an Activity row counts the requests it stands for; refusals past a minute's own rows are counted on one row per reason",
    // A counted row is one per trigger, outcome, clock minute and reason (the upsert's target);
    // a request's own row has no minute and is not in the index. Older rows stand for one request.
    sql: `
      ALTER TABLE activity ADD COLUMN count INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE activity ADD COLUMN counted_minute INTEGER;
      CREATE UNIQUE INDEX activity_counted ON activity (trigger_id, outcome, counted_minute, coalesce(detail, '')) WHERE counted_minute IS NOT NULL;
    `,
  },
  {
    version: 13,
    name: "trust on first use: until when a trigger may adopt a secret from a provider's handshake",
    // Its own column, not part of the config document: arming changes no setting, and the
    // handshake that adopts a secret clears it (README "Trust on first use").
    sql: `
      ALTER TABLE triggers ADD COLUMN armed_until TEXT;
    `,
  },
  {
    version: 14,
    name: "destinations: each run delivers to one of its trigger's destinations; an Activity row lists every run of its request",
    // Runs made before destinations belong to the one destination the workflow shorthand stands for.
    // The queue is claimed per destination, in order (README "Destinations").
    sql: `
      ALTER TABLE runs ADD COLUMN destination TEXT NOT NULL DEFAULT 'default';
      ALTER TABLE activity ADD COLUMN run_ids TEXT;
      CREATE INDEX runs_destination_queue ON runs (status, trigger_id, destination, lane, seq);
    `,
  },
  {
    version: 15,
    name: "destinations' state: paused, the breaker, the rate limit's window (shared by every instance, kept across restarts)",
    sql: `
      CREATE TABLE destination_state (
        trigger_id TEXT NOT NULL,
        destination TEXT NOT NULL,
        paused INTEGER NOT NULL DEFAULT 0,
        breaker TEXT NOT NULL DEFAULT 'closed',
        failures INTEGER NOT NULL DEFAULT 0,
        open_until_ms INTEGER,
        open_ms INTEGER,
        opened_at_ms INTEGER,
        window_start_ms INTEGER,
        window_count INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (trigger_id, destination)
      );
    `,
  },
  {
    version: 16,
    name: "the rate limit counts from a window's last start (no sliding second may hold more than its starts)",
    sql: `
      ALTER TABLE destination_state RENAME COLUMN window_start_ms TO last_start_ms;
    `,
  },
];
