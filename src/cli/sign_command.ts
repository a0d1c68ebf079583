import { loadServerConfig } from "../config/load_server_config.ts";
import { UsageError } from "../config/usage_error.ts";
import type { ParsedArgs } from "./args.ts";
import { baseUrlOf } from "./base_url_of.ts";
import { print } from "./output.ts";
import { signedCurl } from "./sign.ts";
import { withCore } from "./with_core.ts";

/** `inlet sign TRIGGER_ID --body FILE`: a correctly signed curl command. */
export async function sign({ options, positional: [id], serverArgs }: ParsedArgs): Promise<number> {
  const config = loadServerConfig(serverArgs);
  if (!id) throw new UsageError("sign needs a trigger id: inlet sign TRIGGER_ID --body FILE");
  if (!options.body) throw new UsageError("sign needs --body FILE (the exact bytes to send; - for stdin)");
  return withCore(config, async (core) => {
    const trigger = core.triggers.get(id);
    if (!trigger) throw new UsageError(`no trigger with id ${id}`);
    print(
      await signedCurl(trigger, await baseUrlOf(core), core.plugins, {
        bodyFile: String(options.body),
        contentType: options["content-type"] ? String(options["content-type"]) : "application/json",
        keyFile: options.key ? String(options.key) : undefined,
        query: options.query ? String(options.query) : undefined,
      }),
    );
    return 0;
  });
}
