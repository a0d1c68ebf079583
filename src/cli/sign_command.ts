import { loadServerConfig, UsageError } from "../config/server_config.ts";
import { atMost, parseArgs } from "./args.ts";
import { baseUrlOf } from "./base_url_of.ts";
import { withCore } from "./with_core.ts";
import { print } from "./output.ts";
import { signedCurl } from "./sign.ts";

/** `inlet sign TRIGGER_ID --body FILE`: a correctly signed curl command. */
export async function sign(args: string[]): Promise<number> {
  const { options, positional, serverArgs } = parseArgs(args, { body: "value", "content-type": "value", key: "value", query: "value" });
  const config = loadServerConfig(serverArgs);
  if (!positional[0]) throw new UsageError("sign needs a trigger id: inlet sign TRIGGER_ID --body FILE");
  atMost(positional, 1, "sign");
  if (!options.body) throw new UsageError("sign needs --body FILE (the exact bytes to send; - for stdin)");
  return withCore(config, async (core) => {
    const trigger = core.triggers.get(positional[0]);
    if (!trigger) throw new UsageError(`no trigger with id ${positional[0]}`);
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
