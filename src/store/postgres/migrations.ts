/**
 * PostgreSQL schema migrations: numbered, applied once each, in order, in one transaction under an
 * advisory lock so that instances starting together apply each exactly once. Never edit a released
 * one: add the next. (The numbers are PostgreSQL's own; SQLite has its own list.)
 */
export const PG_MIGRATIONS: Array<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: "triggers, runs with leases, activity, dedup keys",
    sql: `
      CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
      INSERT INTO meta (key, value) VALUES ('triggers_revision', '0');
      CREATE TABLE triggers (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        token text NOT NULL UNIQUE,
        config text NOT NULL,
        secret_sealed text,
        app_secret_sealed text,
        created_at text NOT NULL,
        updated_at text NOT NULL
      );
      CREATE TABLE runs (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        trigger_id text NOT NULL,
        request_id text NOT NULL,
        status text NOT NULL,
        trigger_json text NOT NULL,
        result_json text,
        attempts integer NOT NULL DEFAULT 0,
        error text,
        created_at text NOT NULL,
        finished_at text,
        created_ms bigint NOT NULL,
        lease_owner text,
        lease_until_ms bigint
      );
      CREATE INDEX runs_by_trigger ON runs (trigger_id, seq);
      CREATE INDEX runs_unfinished ON runs (seq) WHERE status IN ('queued', 'running');
      CREATE INDEX runs_by_age ON runs (created_ms);
      CREATE TABLE activity (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        trigger_id text NOT NULL,
        at text NOT NULL,
        at_ms bigint NOT NULL,
        request_id text NOT NULL,
        outcome text NOT NULL,
        run_id text,
        detail text
      );
      CREATE INDEX activity_by_trigger ON activity (trigger_id, seq);
      CREATE INDEX activity_by_time ON activity (at_ms);
      CREATE TABLE dedup_keys (
        trigger_id text NOT NULL,
        key_hash text NOT NULL,
        seen_ms bigint NOT NULL,
        expires_ms bigint NOT NULL,
        PRIMARY KEY (trigger_id, key_hash)
      );
      CREATE INDEX dedup_by_expiry ON dedup_keys (expires_ms);
    `,
  },
  {
    version: 5,
    name: "replay and ordering: runs remember what they replay, their lane and ordering key; filtered rows keep their request",
    sql: `
      ALTER TABLE runs ADD COLUMN replay_of text;
      ALTER TABLE runs ADD COLUMN lane integer NOT NULL DEFAULT 0;
      ALTER TABLE runs ADD COLUMN ordering_key text;
      ALTER TABLE activity ADD COLUMN request_json text;
      CREATE INDEX runs_queue ON runs (lane, seq) WHERE status = 'queued';
      CREATE INDEX runs_by_ordering_key ON runs (trigger_id, ordering_key, seq) WHERE ordering_key IS NOT NULL;
      CREATE INDEX runs_by_trigger_time ON runs (trigger_id, created_ms);
      CREATE INDEX activity_by_trigger_time ON activity (trigger_id, outcome, at_ms);
    `,
  },
  {
    version: 6,
    name: "alerts: one state machine per rule, and an outbox of notifications",
    sql: `
      CREATE TABLE alerts (
        id text PRIMARY KEY, trigger_id text NOT NULL, kind text NOT NULL, state text NOT NULL,
        since text NOT NULL, value double precision NOT NULL, threshold double precision NOT NULL, notified_at text
      );
      CREATE TABLE alert_outbox (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, id text NOT NULL UNIQUE, alert_id text NOT NULL, payload text NOT NULL,
        attempts integer NOT NULL DEFAULT 0, next_ms bigint NOT NULL, delivered_at text, lease_owner text, lease_until_ms bigint
      );
      CREATE INDEX alert_outbox_due ON alert_outbox (next_ms) WHERE delivered_at IS NULL;
      CREATE INDEX runs_by_trigger_status ON runs (trigger_id, status);
    `,
  },
  {
    version: 7,
    name: "bulk replay takes each request's latest attempt: runs indexed by what they replay (replays only)",
    sql: `
      CREATE INDEX runs_by_replay_of ON runs (replay_of) WHERE replay_of IS NOT NULL;
    `,
  },
  {
    version: 8,
    name: "bulk replay selects one row per request, its latest attempt: replays and Filtered rows indexed by request",
    // Bulk replay looks for later runs and later Filtered rows of a candidate's request. Both
    // indexes are partial so that live requests do not pay for them: replays are the only runs in
    // the first (runs_by_replay_of goes: the selection no longer looks runs up by what they replay,
    // and nothing else did), and a request that is
    // filtered writes the second, one that runs does not.
    sql: `
      DROP INDEX runs_by_replay_of;
      CREATE INDEX runs_replays_by_request ON runs (request_id, seq) WHERE replay_of IS NOT NULL;
      CREATE INDEX activity_filtered_by_request ON activity (request_id, seq) WHERE outcome = 'filtered';
    `,
  },
  {
    version: 9,
    name: "bounded refusals: an Activity row counts the requests it stands for; refusals past a minute's own rows are counted on one row per reason",
    // A counted row is one per trigger, outcome, clock minute and reason across instances (the
    // upsert's target); a request's own row has no minute and is not in the index. Older rows
    // stand for one request (ADD COLUMN with a constant default rewrites nothing).
    sql: `
      ALTER TABLE activity ADD COLUMN count integer NOT NULL DEFAULT 1;
      ALTER TABLE activity ADD COLUMN counted_minute bigint;
      CREATE UNIQUE INDEX activity_counted ON activity (trigger_id, outcome, counted_minute, coalesce(detail, '')) WHERE counted_minute IS NOT NULL;
    `,
  },
  {
    version: 10,
    name: "trust on first use: until when a trigger may adopt a secret from a provider's handshake",
    // Its own column, not part of the config document: arming changes no setting, and the
    // handshake that adopts a secret clears it (README "Trust on first use").
    sql: `
      ALTER TABLE triggers ADD COLUMN armed_until text;
    `,
  },
  {
    version: 11,
    name: "destinations: each run delivers to one of its trigger's destinations; an Activity row lists every run of its request",
    // Runs made before destinations belong to the one destination the workflow shorthand stands for.
    // The queue is claimed per destination, in order (README "Destinations").
    sql: `
      ALTER TABLE runs ADD COLUMN destination text NOT NULL DEFAULT 'default';
      ALTER TABLE activity ADD COLUMN run_ids text;
      CREATE INDEX runs_destination_queue ON runs (status, trigger_id, destination, lane, seq);
    `,
  },
  {
    version: 12,
    name: "destinations' state: paused, the breaker, the rate limit's window (shared by every instance, kept across restarts)",
    sql: `
      CREATE TABLE destination_state (
        trigger_id text NOT NULL,
        destination text NOT NULL,
        paused boolean NOT NULL DEFAULT false,
        breaker text NOT NULL DEFAULT 'closed',
        failures integer NOT NULL DEFAULT 0,
        open_until_ms bigint,
        open_ms bigint,
        opened_at_ms bigint,
        window_start_ms double precision,
        window_count integer NOT NULL DEFAULT 0,
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
