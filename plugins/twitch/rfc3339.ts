/** Moved to the plugin API, where the signed-timestamp recipe reads RFC 3339 timestamps too. */
export { rfc3339Seconds } from "../../src/plugins/rfc3339.ts";
