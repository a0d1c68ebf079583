import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { handshakeProblems } from "./declared_handshake.ts";
import { hostHandshake } from "./host_handshake.ts";
import { settingSpecProblems } from "./setting_spec_problems.ts";
import type { InletPlugin } from "./types.ts";

/** A plugin file that cannot be used: the server refuses to start and names the file. */
export class PluginLoadError extends Error {
  override name = "PluginLoadError";
  readonly code = "plugin_load";
}

const ID = /^[a-z0-9-]+$/;

/**
 * Checks the shape a plugin must have (docs/plugins.md#fields-and-hooks); returns a list of what is wrong.
 *
 * @example
 * ```ts
 * pluginProblems({ id: "Acme", name: "Acme", secret: { label: "s", generated: false }, verify: () => true });
 * // ['id must match [a-z0-9-]+ (got "Acme")']
 * ```
 */
export function pluginProblems(candidate: unknown): string[] {
  if (candidate === null || typeof candidate !== "object") return ["the default export is not an object"];
  const p = candidate as Partial<InletPlugin> & Record<string, unknown>;
  const problems: string[] = [];
  if (typeof p.id !== "string" || !ID.test(p.id)) problems.push(`id must match [a-z0-9-]+ (got ${JSON.stringify(p.id)})`);
  if (typeof p.name !== "string" || p.name === "") problems.push("name must be a non-empty string");
  if (!p.secret || typeof p.secret.label !== "string" || typeof p.secret.generated !== "boolean")
    problems.push("secret must be { label: string, generated: boolean }");
  if (typeof p.verify !== "function") problems.push("verify(req, ctx) must be a function");
  for (const hook of ["timestamp", "deliveryId", "event", "decodeBody", "handshake", "sign"] as const) {
    if (p[hook] !== undefined && typeof p[hook] !== "function") problems.push(`${hook} must be a function when present`);
  }
  // A timestamp and its tolerance come together (whether the tolerance is a positive number is the loop's below).
  if (p.timestamp !== undefined && p.toleranceSeconds === undefined) problems.push("toleranceSeconds must be a positive number when timestamp() is given");
  if (p.toleranceSeconds !== undefined && p.timestamp === undefined) {
    problems.push("timestamp(req, ctx) must be given with toleranceSeconds: without it every delivery's timestamp is missing, so each would be refused");
  }
  for (const field of ["toleranceSeconds", "dedupWindowSeconds", "contentDedupWindowSeconds"] as const) {
    const v = p[field];
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v <= 0)) problems.push(`${field} must be a positive number`);
  }
  if (p.handshakes !== undefined) {
    problems.push(...handshakeProblems(p.handshakes));
    if (p.handshake !== undefined) problems.push("declare handshakes or write handshake(), not both");
  }
  if (p.adoptsSecret !== undefined && typeof p.adoptsSecret !== "boolean") problems.push("adoptsSecret must be true or false when present");
  if (p.adoptsSecret === true && typeof p.handshake !== "function") {
    problems.push("adoptsSecret: true needs a handshake(req, ctx) that hands the secret over ({ response, adoptSecret })");
  }
  if (p.settings !== undefined) problems.push(...settingSpecProblems(p.settings));
  if (p.credentialHeaders !== undefined && (!Array.isArray(p.credentialHeaders) || p.credentialHeaders.some((h) => typeof h !== "string"))) {
    problems.push("credentialHeaders must be an array of header names");
  }
  if (p.credentialQuery !== undefined && (!Array.isArray(p.credentialQuery) || p.credentialQuery.some((q) => typeof q !== "string" || q === ""))) {
    problems.push("credentialQuery must be an array of query parameter names");
  }
  problems.push(...handshakeMethodProblems(p.handshakeMethods, p.handshake));
  return problems;
}

/** Methods the host routes to the handshake with their own rules, never through `handshakeMethods`. */
const OWN_RULES = ["POST", "GET", "HEAD"];

/** `handshakeMethods`: upper-case method names other than POST/GET/HEAD, answered by a `handshake()` function. */
function handshakeMethodProblems(methods: unknown, handshake: unknown): string[] {
  if (methods === undefined) return [];
  if (!Array.isArray(methods) || methods.some((m) => typeof m !== "string" || !/^[A-Z]+$/.test(m))) {
    return ['handshakeMethods must be an array of upper-case method names, e.g. ["OPTIONS"]'];
  }
  const problems: string[] = [];
  const own = methods.filter((m) => OWN_RULES.includes(m));
  if (own.length > 0)
    problems.push(`handshakeMethods cannot list ${own.join(", ")}: POST always reaches the plugin, and GET and HEAD reach handshake() unverified`);
  // Declared handshakes answer POSTs only, so another method would never be answered.
  if (methods.length > 0 && typeof handshake !== "function") problems.push("handshakeMethods needs a handshake(req, ctx) function that answers them");
  return problems;
}

/** The app-trigger plugins of this process: built-ins plus `--plugins-dir`. */
export class PluginRegistry {
  private readonly plugins = new Map<string, InletPlugin & { source: string }>();

  constructor(builtins: InletPlugin[] = []) {
    for (const plugin of builtins) this.add(plugin, "built-in");
  }

  add(plugin: InletPlugin, source: string): void {
    const problems = pluginProblems(plugin);
    if (problems.length) throw new PluginLoadError(`${source}: ${problems.join("; ")}`);
    if (this.plugins.has(plugin.id))
      throw new PluginLoadError(`${source}: plugin id ${JSON.stringify(plugin.id)} is already loaded from ${this.plugins.get(plugin.id)!.source}`);
    // Header names are compared lower-case everywhere.
    const credentialHeaders = (plugin.credentialHeaders ?? []).map((h) => h.toLowerCase());
    // Declared handshakes become the one `handshake` hook the request path calls.
    const handshake = hostHandshake(plugin);
    this.plugins.set(plugin.id, { ...plugin, credentialHeaders, ...(handshake ? { handshake } : {}), source });
  }

  /** Loads every `*.ts` / `*.js` file of `dir` (not tests); a broken one throws naming its file. */
  async loadDir(dir: string): Promise<string[]> {
    const root = resolve(dir);
    let names: string[];
    try {
      if (!statSync(root).isDirectory()) throw new Error("not a directory");
      names = readdirSync(root);
    } catch (error) {
      throw new PluginLoadError(`--plugins-dir ${dir}: ${(error as Error).message}`);
    }
    const loaded: string[] = [];
    for (const name of names.sort()) {
      if (!/\.(ts|js|mjs)$/.test(name) || /\.(test|spec)\.(ts|js|mjs)$/.test(name) || name.endsWith(".d.ts")) continue;
      const file = join(root, name);
      let mod: { default?: unknown };
      try {
        mod = await import(pathToFileURL(file).href);
      } catch (error) {
        throw new PluginLoadError(`${file}: cannot be loaded: ${(error as Error).message}`);
      }
      this.add(mod.default as InletPlugin, file);
      loaded.push((mod.default as InletPlugin).id);
    }
    return loaded;
  }

  get(id: string): InletPlugin | undefined {
    return this.plugins.get(id);
  }

  has(id: string): boolean {
    return this.plugins.has(id);
  }

  ids(): string[] {
    return [...this.plugins.keys()];
  }

  list(): Array<InletPlugin & { source: string }> {
    return [...this.plugins.values()];
  }
}
