/**
 * The shared failure-mode suite over every built-in `plugins/<id>/index.ts` that ships a
 * `fixture.ts` (found at test time, so a new plugin is covered as soon as it has a fixture). A
 * fixture whose provider publishes its keys also exports `providerFetch`, allowing the local
 * stand-in that serves them.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { InletPlugin, PluginFixture, ProviderFetch } from "../../src/plugins/index.ts";
import { failureModeSuite, type FailureModeCase } from "./failure_mode_suite.ts";

const PLUGINS_DIR = join(import.meta.dir, "..", "..", "plugins");

const ids = readdirSync(PLUGINS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(PLUGINS_DIR, entry.name, "index.ts")) && existsSync(join(PLUGINS_DIR, entry.name, "fixture.ts")))
  .map((entry) => entry.name)
  .sort();

const cases: FailureModeCase[] = await Promise.all(
  ids.map(async (id) => {
    const fixture = await import(join(PLUGINS_DIR, id, "fixture.ts"));
    return {
      id,
      plugin: (await import(join(PLUGINS_DIR, id, "index.ts"))).default as InletPlugin,
      fixture: fixture.default as PluginFixture,
      providerFetch: fixture.providerFetch as ProviderFetch | undefined,
    };
  }),
);

failureModeSuite(cases);
