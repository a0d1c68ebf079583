import { expect, test } from "bun:test";
import { thrown } from "../../test/support/values.ts";
import { parseFetchAllow } from "./provider_fetch_allow.ts";
import { loadServerConfig } from "./load_server_config.ts";
import { UsageError } from "./usage_error.ts";

test("entries are HOST:PORT, spelled as a parsed URL spells its host (lower-case, IPv6 in brackets)", () => {
  expect(parseFetchAllow("127.0.0.1:9000, Mirror.Internal:443,[0:0::1]:8443")).toEqual(["127.0.0.1:9000", "mirror.internal:443", "[::1]:8443"]);
  expect(parseFetchAllow(undefined)).toEqual([]);
  expect(parseFetchAllow(" , ")).toEqual([]);
});

test("an entry without a port, with a path or a bad port is refused, naming it", () => {
  for (const bad of ["127.0.0.1", "host:0", "host:70000", "host/x:80", "user@host:80", "http://host:80", ":80"]) {
    expect(() => parseFetchAllow(`ok.example:443,${bad}`)).toThrow(JSON.stringify(bad));
  }
});

test("--provider-fetch-allow and INLET_PROVIDER_FETCH_ALLOW: the flag wins; a bad entry is a usage error naming the flag", () => {
  expect(loadServerConfig([], { INLET_PROVIDER_FETCH_ALLOW: "127.0.0.1:9000" }).providerFetchAllow).toBe("127.0.0.1:9000");
  expect(loadServerConfig(["--provider-fetch-allow", "127.0.0.1:1"], { INLET_PROVIDER_FETCH_ALLOW: "127.0.0.1:9000" }).providerFetchAllow).toBe("127.0.0.1:1");
  const error = thrown(() => loadServerConfig(["--provider-fetch-allow", "localhost"], {}));
  expect(error).toBeInstanceOf(UsageError);
  expect((error as Error).message).toStartWith('--provider-fetch-allow: "localhost" is not HOST:PORT');
});
