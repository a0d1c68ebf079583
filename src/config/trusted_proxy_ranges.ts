import { rangesOf } from "../net/cidr.ts";
import type { ServerConfig } from "./server_config.ts";

/** The trusted proxies' ranges (validated when the config was loaded). */
export const trustedProxyRanges = (config: Pick<ServerConfig, "trustedProxies">) =>
  rangesOf(
    (config.trustedProxies ?? "")
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean),
  );
