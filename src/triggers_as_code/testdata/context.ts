// What the commands will give the module: the API's expression rules, the built-in plugins, and
// the secret policy the trigger service is given in src/core.ts.
import { BUILTIN_PLUGINS } from "../../../plugins/builtin.ts";
import { usesGeneratedSecret } from "../../auth/generic.ts";
import { expressionRules } from "../../checks/compile.ts";
import { PluginRegistry } from "../../plugins/registry.ts";
import type { TriggerSettings } from "../../triggers/normalize.ts";
import type { TriggersAsCodeContext } from "../validate_config.ts";

export const plugins = new PluginRegistry(BUILTIN_PLUGINS);

export const needsGeneratedSecret = (s: TriggerSettings) => (s.app === null ? usesGeneratedSecret(s.auth) : plugins.get(s.app)?.secret.generated === true);

export const context: TriggersAsCodeContext = { rules: expressionRules, plugins, needsGeneratedSecret };
