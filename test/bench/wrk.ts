import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface LoadResult {
  rps: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  /** Answers wrk received (any status); the 2xx among them are `requests - non2xx`. */
  requests: number;
  /** The server's CPU time per answered request during the load, where the bench measured it (µs). */
  cpuUsPerRequest?: number;
}

/**
 * The path of `command`, from Debian's `pkg`: installed (apt-get) when missing and we are root,
 * else an error saying what `purpose` needs.
 */
export function ensureDebianCommand(command: string, pkg: string, purpose: string): string {
  const found = Bun.which(command);
  if (found) return found;
  if (process.getuid?.() === 0) {
    Bun.spawnSync(["apt-get", "update", "-qq"], { stdout: "ignore", stderr: "inherit" });
    Bun.spawnSync(["apt-get", "install", "-y", "-qq", pkg], {
      stdout: "ignore",
      stderr: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  }
  const installed = Bun.which(command);
  if (!installed) throw new Error(`${command} is needed for ${purpose}: apt-get install ${pkg}`);
  return installed;
}

/** Makes sure wrk is there (Debian's package). */
export const ensureWrk = () => ensureDebianCommand("wrk", "wrk", "the benchmark");

const luaString = (s: string) => JSON.stringify(s);

/**
 * In a body, this marker is replaced by a per-request counter (so payload-hash dedup sees new
 * events); in a header value (when the body has none), likewise (a new delivery id each request).
 */
export const UNIQUE_MARKER = "__N__";

function script(method: string, body: string, headers: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "inlet-wrk-"));
  const file = join(dir, "request.lua");
  const lines = [`wrk.method = ${luaString(method)}`, `wrk.body = ${luaString(body)}`];
  for (const [k, v] of Object.entries(headers)) lines.push(`wrk.headers[${luaString(k)}] = ${luaString(v)}`);
  const at = body.indexOf(UNIQUE_MARKER);
  // The counter starts again with each wrk process: a prefix of this load's own keeps bodies and
  // delivery ids new across loads too (warm-up, rounds, and cases sharing a trigger), so that a
  // later load is never answered as a duplicate of an earlier one.
  const nonce = `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}_`;
  const uniqueHeader = Object.entries(headers).find(([, v]) => v.includes(UNIQUE_MARKER));
  if (at >= 0) {
    lines.push(
      `local head, tail = ${luaString(body.slice(0, at) + nonce)}, ${luaString(body.slice(at + UNIQUE_MARKER.length))}`,
      "local n = 0",
      "request = function() n = n + 1; return wrk.format(nil, nil, nil, head .. n .. tail) end",
    );
  } else if (uniqueHeader) {
    // The body stays the same (its signature too); one header carries the counter (a delivery id).
    const [name, value] = uniqueHeader;
    const cut = value.indexOf(UNIQUE_MARKER);
    lines.push(
      `local name, head, tail = ${luaString(name)}, ${luaString(value.slice(0, cut) + nonce)}, ${luaString(value.slice(cut + UNIQUE_MARKER.length))}`,
      "local n = 0",
      "request = function() n = n + 1; wrk.headers[name] = head .. n .. tail; return wrk.format() end",
    );
  }
  // Count non-2xx answers so a broken case cannot pass as fast.
  lines.push(
    "local bad = 0",
    "response = function(status, headers, body) if status < 200 or status > 299 then bad = bad + 1 end end",
    "done = function(summary, latency, requests) io.write(string.format('NON2XX %d\\nREQUESTS %d\\n', bad, summary.requests)) end",
  );
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

function parseDuration(text: string): number {
  const m = text.match(/^([\d.]+)(us|ms|s|m)$/);
  if (!m) return NaN;
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "ms" ? n : m[2] === "s" ? n * 1000 : n * 60_000;
}

/** Runs wrk pinned to core 0 (the server under test is pinned to core 1). */
export async function load(
  url: string,
  options: { seconds: number; connections: number; method?: string; body?: string; headers?: Record<string, string> },
): Promise<LoadResult> {
  const wrk = ensureWrk();
  const lua = script(options.method ?? "POST", options.body ?? "", options.headers ?? {});
  const args = [wrk, "-t1", `-c${options.connections}`, `-d${options.seconds}s`, "--latency", "-s", lua, url];
  const command = Bun.which("taskset") ? ["taskset", "-c", "0", ...args] : args;
  const proc = Bun.spawn(command, { stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  rmSync(dirname(lua), { recursive: true, force: true });
  const rps = Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? NaN);
  const p50 = parseDuration(out.match(/\s50%\s+(\S+)/)?.[1] ?? "");
  const p99 = parseDuration(out.match(/\s99%\s+(\S+)/)?.[1] ?? "");
  const non2xx = Number(out.match(/NON2XX (\d+)/)?.[1] ?? NaN);
  const requests = Number(out.match(/REQUESTS (\d+)/)?.[1] ?? NaN);
  if (!Number.isFinite(rps) || !Number.isFinite(requests)) throw new Error(`could not read wrk output:\n${out}\n${err}`);
  return { rps, p50ms: p50, p99ms: p99, non2xx, requests };
}

/**
 * Load on several servers at once (wrk takes one URL): one wrk per URL, all on core 0, started
 * together, the connections split between them; req/s and counts are summed. Percentiles cannot
 * be merged from wrk's summary: p50 and p99 are the higher of the processes' (they see the same
 * kind of server, so the two are close; `parts` keeps each).
 */
export async function loadSplit(
  urls: string[],
  options: { seconds: number; connections: number; body?: string; headers?: Record<string, string> },
): Promise<LoadResult & { parts: LoadResult[] }> {
  const share = (i: number) => Math.floor(options.connections / urls.length) + (i < options.connections % urls.length ? 1 : 0);
  const parts = await Promise.all(urls.map((url, i) => load(url, { ...options, connections: share(i) })));
  return {
    rps: parts.reduce((sum, p) => sum + p.rps, 0),
    p50ms: Math.max(...parts.map((p) => p.p50ms)),
    p99ms: Math.max(...parts.map((p) => p.p99ms)),
    non2xx: parts.reduce((sum, p) => sum + p.non2xx, 0),
    requests: parts.reduce((sum, p) => sum + p.requests, 0),
    parts,
  };
}
