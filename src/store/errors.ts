/** The store could not be reached or failed to write: the caller answers 503. */
export class StoreUnavailable extends Error {
  override name = "StoreUnavailable";
  readonly code = "store_unavailable";
}

/**
 * The store was migrated by a newer inlet: this one refuses to write to it (its queries may no
 * longer fit the schema). The CLI answers with a usage error naming both versions.
 */
export class SchemaTooNew extends Error {
  override name = "SchemaTooNew";
  readonly code = "schema_too_new";

  constructor(where: string, found: number, known: number) {
    super(`${where} has schema version ${found}, newer than this inlet knows (${known}): use the newer inlet`);
  }
}

/** A `before` cursor that names no row: the API answers 400. Every store throws this one. */
export class UnknownCursor extends Error {
  override name = "UnknownCursor";
  readonly code = "unknown_cursor";
}

/**
 * A trigger's token is another trigger's already (the unique index refused it): the write it was
 * part of changed nothing. Names the trigger being written, never the token.
 */
export class TokenTaken extends Error {
  override name = "TokenTaken";
  readonly code = "token_taken";

  constructor(readonly triggerName: string) {
    super(`${triggerName}: /token: is already another trigger's token; nothing was changed`);
  }
}

/** Errors a store passes to its caller as they are, rather than as StoreUnavailable: they are answers, not outages. */
export const isStoreAnswer = (error: unknown): boolean => error instanceof UnknownCursor || error instanceof TokenTaken;
