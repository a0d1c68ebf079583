// What the commands will give the module: the API's expression rules, the built-in plugins, and
// the secret policy (src/triggers/secret_policy.ts) the trigger service is given in src/core.ts.
import { BUILTIN_PLUGINS } from "../../../plugins/builtin.ts";
import { expressionRules } from "../../checks/compile.ts";
import { PluginRegistry } from "../../plugins/registry.ts";
import type { TriggerSettings } from "../../triggers/normalize.ts";
import { needsGeneratedSecret as policy } from "../../triggers/secret_policy.ts";
import type { TriggersAsCodeContext } from "../validate_config.ts";

export const plugins = new PluginRegistry(BUILTIN_PLUGINS);

export const needsGeneratedSecret = (s: TriggerSettings) => policy(s, plugins);

export const context: TriggersAsCodeContext = { rules: expressionRules, plugins, needsGeneratedSecret };
