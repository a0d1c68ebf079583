/**
 * A stand-in for Google's key host, for tests: an RSA key pair whose JWKS is served over http on
 * 127.0.0.1 (allowed the way --provider-fetch-allow allows a test double), and its private key as
 * the PEM `sign()` takes. Only Google holds the keys of real Pub/Sub tokens.
 *
 * @module
 */
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { exportJWK } from "jose";
import { ProviderFetch } from "../../src/plugins/index.ts";
import { keyIdOf } from "./key_id.ts";

export interface GoogleStandIn {
  /** `http://127.0.0.1:<port>/oauth2/v3/certs`: the trigger's `jwksUrl`. */
  jwksUrl: string;
  /** `127.0.0.1:<port>`, for --provider-fetch-allow. */
  hostPort: string;
  /** The PEM private key tokens are signed with (what `sign()` takes as its key). */
  privatePem: string;
  /** Paths fetched, in order. */
  hits: string[];
  /** `false`: every fetch gets a 503, as a host that is down. */
  up: boolean;
  /** A fetcher allowing this host, with its own cache (the process's key-fetch gate). */
  providerFetch(): ProviderFetch;
  stop(): void;
}

const rsaKeyPair = () => generateKeyPairSync("rsa", { modulusLength: 2048 });

/** The JWKS entry of `publicKey`, with the `kid` tokens signed by its private half name. */
export async function jwkOf(publicKey: KeyObject): Promise<Record<string, unknown>> {
  return { ...(await exportJWK(publicKey)), kid: await keyIdOf(publicKey), alg: "RS256", use: "sig" };
}

/**
 * Starts a stand-in serving the JWKS of a fresh key pair (and of `extraPublicKeys`); it does not
 * keep the process alive.
 *
 * @example
 * ```ts
 * const google = await googleStandIn();
 * // create the trigger with appSettings.jwksUrl = google.jwksUrl, serve with --provider-fetch-allow google.hostPort
 * ```
 */
export async function googleStandIn(): Promise<GoogleStandIn> {
  const { privateKey, publicKey } = rsaKeyPair();
  // A second key in the set, as Google publishes two while it rotates.
  const keys = [await jwkOf(publicKey), await jwkOf(rsaKeyPair().publicKey)];
  const hits: string[] = [];
  const standIn: GoogleStandIn = {
    jwksUrl: "",
    hostPort: "",
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
    hits,
    up: true,
    providerFetch: () => new ProviderFetch([standIn.hostPort]),
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      hits.push(path);
      if (!standIn.up) return new Response("unavailable", { status: 503 });
      return path === "/oauth2/v3/certs" ? Response.json({ keys }) : new Response("not found", { status: 404 });
    },
  });
  server.unref();
  standIn.hostPort = `127.0.0.1:${server.port}`;
  standIn.jwksUrl = `http://${standIn.hostPort}/oauth2/v3/certs`;
  return standIn;
}
