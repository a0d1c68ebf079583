// Triggers as code (docs/config-file.md): reading a config file, its plan against the stored
// triggers, and the export, all pure; applying a plan through the trigger service
// (apply_config.ts), and watching a file (config_watch.ts).
export { applyConfig, type TriggerApplier } from "./apply_config.ts";
export { formatConfigError, type ConfigError, type ConfigErrorCode, type ConfigResult } from "./config_error.ts";
export { exportTriggers } from "./export.ts";
export { loadConfigFile, type LoadedConfig } from "./load_config.ts";
export { formatOf, parseConfigText, readConfigFile, type ConfigFormat } from "./parse_config.ts";
export { exportVariables, secretVariables } from "./placeholders.ts";
export { formatPlan, managedBy, planConfig, type Plan, type PlanStep } from "./plan.ts";
export { substitute, type SubstituteOptions, type Substituted } from "./substitute.ts";
export { validateConfig, type ConfigFile, type DesiredTrigger, type TriggersAsCodeContext } from "./validate_config.ts";
