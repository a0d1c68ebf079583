import { newSecret, newWebhookToken } from "../auth/secrets.ts";
import type { SealedBox } from "../auth/sealed_box.ts";
import type { StoredTrigger, TriggerStore } from "../store/trigger_store.ts";
import type { MetaStore } from "../store/meta_store.ts";
import { normalizeTrigger, type NormalizeContext, type TriggerSettings } from "./normalize.ts";
import { triggerUrl } from "../records/trigger_url.ts";
import type { TriggerConfig, TriggerRecord } from "../records/trigger.ts";
import { armedUntilFrom } from "../records/arm_window.ts";
import { BASE_URL_META } from "../records/meta_keys.ts";
import { adoptionOf, type Adoption } from "./adoption.ts";
import type { ApplyPlan, TriggerSnapshot } from "./apply_plan.ts";
import { createdByConfig, replacedByConfig } from "./config_records.ts";
import { laterThan } from "./later_than.ts";
import { notArmable, type ArmResult } from "./arming.ts";
import { refuseIfManaged } from "./managed_by_config.ts";
import { ValidationError } from "./validation_error.ts";

/** Where a server with default flags is reached (README "Commands and flags"), for a save made before any server recorded its own. */
const DEFAULT_BASE_URL = "http://127.0.0.1:8080";

/** Is a generated secret part of these settings? */
type SecretPolicy = (settings: TriggerSettings) => boolean;

/**
 * Creating, changing and deleting triggers, and the in-memory index the ingest path reads.
 * Every change bumps the store's revision; `refresh()` picks up changes made by other processes
 * (the CLI, other instances) and is polled once a second by the server.
 */
export class TriggerService {
  private byToken = new Map<string, TriggerRecord>();
  private byId = new Map<string, TriggerRecord>();
  private revision = -1;
  /** Loads run one after another, so an older snapshot never replaces a newer one. */
  private loading: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: TriggerStore & Pick<MetaStore, "getMeta">,
    private readonly box: SealedBox,
    private readonly rules: NormalizeContext,
    /** Whether a trigger gets a generated secret: generic non-none modes, and apps whose plugin generates one. */
    private readonly needsGeneratedSecret: SecretPolicy,
    /** When a trigger is created, changed or armed. */
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Loads every trigger if the store changed since the last load. */
  refresh(force = false): Promise<void> {
    const next = this.loading.then(() => this.load(force));
    this.loading = next.catch(() => {});
    return next;
  }

  private async load(force: boolean): Promise<void> {
    const revision = await this.store.triggersRevision();
    if (!force && revision === this.revision) return;
    const stored = await this.store.listTriggers();
    const byToken = new Map<string, TriggerRecord>();
    const byId = new Map<string, TriggerRecord>();
    for (const s of stored) {
      // Keep the same object for an unchanged trigger so per-trigger compiled state stays cached.
      const previous = this.byId.get(s.config.id);
      const record = previous && previous.updatedAt === s.config.updatedAt && previous.token === s.config.token ? previous : this.open(s);
      byToken.set(record.token, record);
      byId.set(record.id, record);
    }
    this.byToken = byToken;
    this.byId = byId;
    this.revision = revision;
  }

  private open(stored: StoredTrigger): TriggerRecord {
    const { rotation, ...config } = stored.config;
    return {
      ...config,
      ...(this.armable(config.app) ? { armedUntil: stored.armedUntil ?? null } : {}),
      secret: stored.secretSealed ? this.box.open(stored.secretSealed) : null,
      appSecret: stored.appSecretSealed ? this.box.open(stored.appSecretSealed) : null,
      previous: rotation
        ? {
            secret: rotation.previousSecretSealed ? this.box.open(rotation.previousSecretSealed) : null,
            appSecret: rotation.previousAppSecretSealed ? this.box.open(rotation.previousAppSecretSealed) : null,
            expiresAt: rotation.expiresAt,
          }
        : null,
    };
  }

  private seal(record: TriggerRecord): StoredTrigger {
    const { secret, appSecret, previous, armedUntil, ...config } = record;
    const rotation = previous
      ? {
          ...(previous.secret ? { previousSecretSealed: this.box.seal(previous.secret) } : {}),
          ...(previous.appSecret ? { previousAppSecretSealed: this.box.seal(previous.appSecret) } : {}),
          expiresAt: previous.expiresAt,
        }
      : undefined;
    return {
      config: { ...(config as TriggerConfig), ...(rotation ? { rotation } : {}) },
      secretSealed: secret ? this.box.seal(secret) : null,
      appSecretSealed: appSecret ? this.box.seal(appSecret) : null,
      armedUntil: armedUntil ?? null,
    };
  }

  /**
   * The rules for one save, with the trigger's URL where its plugin checks settings (read from the
   * store only then: most saves need no base URL).
   */
  private async rulesFor(token: string, input: unknown, baseUrl: string | undefined): Promise<NormalizeContext> {
    const app = (input as { app?: unknown } | null)?.app;
    if (typeof app !== "string" || !this.rules.plugins.get(app)?.settings?.length) return this.rules;
    const base = baseUrl ?? (await this.store.getMeta(BASE_URL_META)) ?? DEFAULT_BASE_URL;
    return { ...this.rules, triggerUrl: triggerUrl(base, token) };
  }

  /** What building a trigger from a config file needs to know. */
  private get recordRules() {
    return { needsGeneratedSecret: this.needsGeneratedSecret, armable: (app: string | null) => this.armable(app) };
  }

  private armable(app: string | null): boolean {
    // Trust on first use: only a plugin that adopts its secret from a handshake has triggers to arm.
    return app !== null && this.rules.plugins.get(app)?.adoptsSecret === true;
  }

  findByToken(token: string): TriggerRecord | undefined {
    return this.byToken.get(token);
  }

  get(id: string): TriggerRecord | undefined {
    return this.byId.get(id);
  }

  /** Newest first. */
  list(): TriggerRecord[] {
    return [...this.byId.values()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1));
  }

  /**
   * `baseUrl`: the public base URL the caller builds trigger URLs from (an app setting's check may
   * compare against the trigger's URL); default: the one the server recorded in the store.
   */
  async create(input: unknown, baseUrl?: string): Promise<TriggerRecord> {
    const token = newWebhookToken();
    const at = this.now();
    const settings = normalizeTrigger(input, await this.rulesFor(token, input, baseUrl), undefined, at);
    const now = at.toISOString();
    const appSecret = (input as { appSecret?: string }).appSecret;
    const record: TriggerRecord = {
      id: Bun.randomUUIDv7(),
      token,
      ...settings,
      createdAt: now,
      updatedAt: now,
      secret: this.needsGeneratedSecret(settings) ? newSecret() : null,
      appSecret: settings.app !== null && appSecret ? appSecret : null,
      previous: null,
      // Trust on first use: the provider's set-up follows the creation, so it is armed at once.
      ...(this.armable(settings.app) ? { armedUntil: armedUntilFrom(at) } : {}),
    };
    await this.store.insertTrigger(this.seal(record));
    await this.refresh(true);
    return this.byId.get(record.id) ?? record;
  }

  /** `baseUrl` as for {@link create}. */
  async update(id: string, patch: unknown, baseUrl?: string): Promise<TriggerRecord | undefined> {
    await this.refresh();
    const current = this.byId.get(id);
    if (!current) return undefined;
    refuseIfManaged(current);
    const body = patch as { app?: unknown; appSecret?: string };
    if (body && typeof body === "object" && "app" in body && body.app !== current.app) {
      throw new ValidationError([{ path: "/app", message: "a trigger's app cannot be changed; create a new trigger instead" }]);
    }
    const settings = normalizeTrigger(patch, await this.rulesFor(current.token, { app: current.app }, baseUrl), current, this.now());
    // Changing the Authentication Type is how a secret is rotated (docs/api.md#changing-a-trigger).
    const rotate = settings.auth.type !== current.auth.type;
    const wantsSecret = this.needsGeneratedSecret(settings);
    const record: TriggerRecord = {
      ...current,
      ...settings,
      // Optional settings the patch cleared are absent from `settings`: not kept from `current`.
      maxBodyBytes: settings.maxBodyBytes,
      // A workflow given goes back to the shorthand: the list goes.
      destinations: settings.destinations,
      sources: settings.sources,
      alerts: settings.alerts,
      appSettings: settings.appSettings,
      updatedAt: laterThan(current.updatedAt),
      secret: wantsSecret ? (rotate || !current.secret ? newSecret() : current.secret) : null,
      appSecret: body.appSecret !== undefined ? body.appSecret || null : current.appSecret,
      // A new Authentication Type rotates at once: nothing of the old one verifies any more.
      previous: rotate ? null : current.previous,
    };
    await this.store.updateTrigger(this.seal(record));
    await this.refresh(true);
    return this.byId.get(id);
  }

  /**
   * Rotation with overlap (docs/api.md#rotation-with-overlap): a new secret that works at once,
   * while the previous one keeps verifying for `overlapSeconds` (0: not at all). A generated secret
   * is made anew; an app trigger whose secret the provider gives takes the new one in `appSecret`.
   */
  async rotate(
    id: string,
    input: { overlapSeconds: number; appSecret?: string },
  ): Promise<{ trigger: TriggerRecord; secret: string | null; previousExpiresAt: string } | undefined> {
    await this.refresh();
    const current = this.byId.get(id);
    if (!current) return undefined;
    refuseIfManaged(current);
    // The secret that verifies is rotated the way it was set up: one the caller gave inlet (pasted
    // at create, or adopted from a handshake) takes the new one in appSecret; one inlet generated
    // is generated anew. Anything else would leave in force a secret the caller did not expect.
    const given = current.appSecret !== null;
    const generated = !given && current.secret !== null;
    if (!given && !generated && current.app === null) {
      throw new ValidationError([{ path: "", message: "this trigger has no secret to rotate (Authentication Type none): choose a type that has one" }]);
    }
    if (!generated && input.appSecret === undefined) {
      const why = given
        ? "this trigger verifies with the secret it was given (pasted or adopted), not one inlet generated"
        : "this app trigger's secret comes from the provider";
      throw new ValidationError([{ path: "/appSecret", message: `${why}: send the new one as appSecret (the old one keeps working during the overlap)` }]);
    }
    if (generated && input.appSecret !== undefined) {
      throw new ValidationError([
        { path: "/appSecret", message: "this trigger's secret is generated by inlet: leave appSecret out (a new one is generated and returned)" },
      ]);
    }
    const expiresAt = new Date(Date.now() + input.overlapSeconds * 1000).toISOString();
    const record: TriggerRecord = {
      ...current,
      updatedAt: laterThan(current.updatedAt),
      secret: generated ? newSecret() : current.secret,
      appSecret: generated ? current.appSecret : input.appSecret || null,
      previous: input.overlapSeconds > 0 ? { secret: generated ? current.secret : null, appSecret: generated ? null : current.appSecret, expiresAt } : null,
    };
    await this.store.updateTrigger(this.seal(record));
    await this.refresh(true);
    const trigger = this.byId.get(id) ?? record;
    return { trigger, secret: generated ? trigger.secret : null, previousExpiresAt: expiresAt };
  }

  /**
   * Arms a trigger whose plugin adopts its secret (README "Trust on first use"): for the next 15
   * minutes a provider's handshake may hand it a secret, replacing one adopted before.
   * Undefined for an unknown id.
   */
  async arm(id: string): Promise<ArmResult | undefined> {
    await this.refresh();
    const current = this.byId.get(id);
    if (!current) return undefined;
    if (current.armedUntil === undefined) return notArmable(current);
    const armedUntil = armedUntilFrom(this.now());
    await this.store.updateTrigger(this.seal({ ...current, armedUntil, updatedAt: laterThan(current.updatedAt) }));
    await this.refresh(true);
    return { kind: "armed", armedUntil, trigger: this.byId.get(id) ?? { ...current, armedUntil } };
  }

  /**
   * A secret the provider handed over in its handshake (Asana, Notion), arrived at `now`: stored
   * only while the trigger is armed, which ends the armed window. Read from the store as it is
   * now, so an arm made by another instance counts.
   */
  async adoptAppSecret(id: string, secret: string, now: Date): Promise<Adoption> {
    await this.refresh();
    const current = this.byId.get(id);
    if (!current) return "not_armed";
    const adoption = adoptionOf(current, secret, now);
    if (adoption !== "adopted") return adoption;
    await this.store.updateTrigger(this.seal({ ...current, appSecret: secret, armedUntil: null, updatedAt: laterThan(current.updatedAt) }));
    await this.refresh(true);
    return adoption;
  }

  /** Every trigger and the revision they were loaded at (a plan made from them is applied against it). */
  async snapshot(): Promise<TriggerSnapshot> {
    await this.refresh();
    return { triggers: this.list(), revision: this.revision };
  }

  /**
   * Applies a config file's plan (README "Triggers as code") in one transaction: deletions,
   * updates (settings replaced whole) and creations, every written trigger managed by the config.
   * A pinned token or a supplied secret is used as given; a supplied secret that changes, or a
   * new Authentication Type, rotates at once (nothing of the old one verifies). "stale" when a
   * change since `revision` (the snapshot the plan was made from) means it must be planned again;
   * a token another trigger has is TokenTaken. Either way nothing was written.
   */
  async apply(plan: ApplyPlan, revision: number): Promise<"applied" | "stale"> {
    const at = this.now();
    const inserts: StoredTrigger[] = [];
    const updates: StoredTrigger[] = [];
    const deletes: string[] = [];
    for (const step of plan.steps) {
      if (step.action === "create") inserts.push(this.seal(createdByConfig(step.desired, at, this.recordRules)));
      else if (step.action === "update") updates.push(this.seal(replacedByConfig(step.current, step.desired, this.recordRules)));
      else if (step.action === "delete") deletes.push(step.current.id);
    }
    const applied = await this.store.applyTriggers({ inserts, updates, deletes, expectedRevision: revision });
    await this.refresh(true);
    return applied ? "applied" : "stale";
  }

  async delete(id: string): Promise<boolean> {
    await this.refresh();
    const current = this.byId.get(id);
    if (current) refuseIfManaged(current);
    const removed = await this.store.deleteTrigger(id);
    await this.refresh(true);
    return removed;
  }
}
