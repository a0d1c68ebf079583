// The order in which queued runs start, shared by both stores' SQL: lanes (live before
// replayed) and ordering keys (one run per key at a time, in commit order). docs/store.md
// "Ordering in the queue".

/** Queue lanes: live runs are claimed before replayed ones, so a bulk replay never starves live traffic. */
export const LIVE_LANE = 0;
export const REPLAY_LANE = 1;
export const laneOf = (run: { replayOf?: string | null }) => (run.replayOf ? REPLAY_LANE : LIVE_LANE);

/**
 * A queued run may start only while no other run of its trigger's destination with the same
 * ordering key is running (a retrying run is running: it holds its key until it ends) and none is queued ahead of
 * it. Destinations are ordered each on its own: one hanging never holds another's keys. `r` is
 * the candidate's alias; runs without a key skip the check.
 */
export const ORDERED_RUN_MAY_START = `(r.ordering_key IS NULL OR NOT EXISTS (
  SELECT 1 FROM runs e WHERE e.trigger_id = r.trigger_id AND e.destination = r.destination AND e.ordering_key = r.ordering_key AND e.id <> r.id
    AND (e.status = 'running' OR (e.status = 'queued' AND e.seq < r.seq))))`;

/** Queued ordered runs that may not start yet, counted per trigger (for `/metrics`). */
export const RUNS_WAITING_ON_KEY = `SELECT r.trigger_id, count(*) AS n FROM runs r
  WHERE r.status = 'queued' AND r.ordering_key IS NOT NULL AND NOT ${ORDERED_RUN_MAY_START} GROUP BY r.trigger_id`;

/**
 * A queued run may be claimed by `owner` unless another instance holds its reservation (a caller
 * waits there for it: records/run.ts RunReservation) that has not ended by `now`. `owner` and
 * `now` are SQL placeholders (`?` or `$n`); `r` is the candidate's alias.
 */
export const reservationAllows = (owner: string, now: string) => `(r.lease_owner IS NULL OR r.lease_owner = ${owner} OR r.lease_until_ms < ${now})`;
