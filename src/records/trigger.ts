import type { Static } from "@sinclair/typebox";
import type { WorkflowConfig } from "./workflow.ts";
import type { DestinationConfig } from "./destination.ts";
import type { AlertRule } from "./alert.ts";
import type { AuthSchema, DedupSchema, FilterSchema, PayloadSchemaSchema, RedactionSchema, ResponseSchema, SourcesSchema } from "./trigger_schemas.ts";

export type AuthConfig = Static<typeof AuthSchema> & { signatureHeader: string; encoding: "hex" | "base64" };
export type DedupConfig = Static<typeof DedupSchema>;
export type FilterConfig = Static<typeof FilterSchema>;
export type RedactionConfig = Static<typeof RedactionSchema>;
export type ResponseConfig = Static<typeof ResponseSchema>;

/** How long a workflow response mode caller waits for its run when `response.timeoutMs` is not set. */
export const DEFAULT_WORKFLOW_RESPONSE_TIMEOUT_MS = 10_000;
export type PayloadSchemaConfig = Static<typeof PayloadSchemaSchema>;
export type SourcesConfig = Static<typeof SourcesSchema>;
export type Method = "GET" | "POST";

/** A trigger's configuration as stored (secrets kept apart, encrypted). */
export interface TriggerConfig {
  id: string;
  token: string;
  name: string;
  app: string | null;
  methods: Method[];
  auth: AuthConfig;
  dedup: DedupConfig;
  filter: FilterConfig;
  redaction: RedactionConfig;
  response: ResponseConfig;
  /**
   * The workflow of the `default` destination when the trigger has only that one (the shorthand),
   * else `{ kind: "none" }`: read destinations through `destinationsOf`.
   */
  workflow: WorkflowConfig;
  /** Several destinations (or one with settings of its own); absent: the `workflow` shorthand. */
  destinations?: DestinationConfig[];
  /** Absent on triggers saved before schemas existed: treated as disabled. */
  schema?: PayloadSchemaConfig;
  /** Absent: the server's `--max-body-bytes`. */
  maxBodyBytes?: number;
  /** Absent: any address may call. */
  sources?: SourcesConfig;
  /** Alert rules (docs/api.md#alerts); absent: none. */
  alerts?: AlertRule[];
  /** An app trigger's settings, every one its plugin declares (defaults filled); absent when it declares none. */
  appSettings?: Record<string, string | string[] | boolean>;
  /** The previous secret(s), sealed, still verifying until `expiresAt` (docs/api.md#rotation-with-overlap). */
  rotation?: { previousSecretSealed?: string; previousAppSecretSealed?: string; expiresAt: string };
  /**
   * "config": made or taken over by a config file (README "Triggers as code"), changed only by
   * applying one; the API and the panel refuse to change or delete it. Absent (saved before the
   * field existed) or null: the API's.
   */
  managedBy?: ManagedBy;
  createdAt: string;
  updatedAt: string;
}

/** Who changes a trigger: a config file ("config") or the API and the panel (null). */
export type ManagedBy = "config" | null;

/** A trigger with its (decrypted) secrets, as the ingest path holds it in memory. */
export interface TriggerRecord extends TriggerConfig {
  /** Generated secret of bearer/header/HMAC modes (or a generated app secret); null for `none`. */
  secret: string | null;
  /** The provider's secret / key pasted by the user, for app triggers. */
  appSecret: string | null;
  /** After a rotation with overlap: the secrets that still verify until `expiresAt`; else null. */
  previous: PreviousSecrets | null;
  /**
   * Trust on first use (README "Trust on first use"): until when a handshake may hand this
   * trigger a new secret (ISO), or null. Present only on a trigger whose plugin adopts its secret.
   */
  armedUntil?: string | null;
}

/** What verified before the last rotation, and until when it still does. */
export interface PreviousSecrets {
  secret: string | null;
  appSecret: string | null;
  expiresAt: string;
}
