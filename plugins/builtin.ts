import type { InletPlugin } from "../src/plugins/types.ts";

/** Every built-in app-trigger plugin, bundled into the binary. */
export const BUILTIN_PLUGINS: InletPlugin[] = [];
