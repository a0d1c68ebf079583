import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, spawnServer } from "./support/process.ts";
import { rawHttp } from "./support/raw_http.ts";
import { waitFor } from "./support/server.ts";

const ADMIN = "request-log-admin-token-0123456789";
const LINE_KEYS = ["time", "level", "msg", "requestId", "triggerId", "method", "outcome", "status", "durationMs"];

test("the request log: one JSON line per webhook request, whatever its end, and never a body, secret, token, query or header value", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-request-log-"));
  // Logging is on by default; Bun's parser limit raised as `npm start` does, so the edge answers 431 itself.
  const server = await spawnServer([BUN, "run", "src/main.ts"], ["--data-dir", dataDir], {
    env: { INLET_ADMIN_TOKEN: ADMIN },
  });
  try {
    const api = (path: string, init: RequestInit = {}) =>
      fetch(server.url + path, { ...init, headers: { Authorization: `Bearer ${ADMIN}`, "Content-Type": "application/json" } });
    const t = await (
      await api("/api/triggers", {
        method: "POST",
        body: JSON.stringify({ name: "logged", auth: { type: "bearer" }, redaction: { enabled: true, patterns: ["^email$"] } }),
      })
    ).json();
    const { secret } = await (await api(`/api/triggers/${t.id}/secret`)).json();
    const post = (body: string, headers: Record<string, string>, url = `${t.url}?sig=QUERY-MARKER-q`) =>
      fetch(url, { method: "POST", body, headers: { "Content-Type": "application/json", "X-Trace": "HEADER-MARKER-h", ...headers } });
    const ids = new Map<string, number>();
    const answered = (r: Response) => ids.set(r.headers.get("x-request-id")!, r.status);

    answered(await post('{"email":"BODY-MARKER@example.org","n":1}', { Authorization: `Bearer ${secret}` }));
    answered(await post('{"n":2}', { Authorization: "Bearer WRONG-MARKER-w" }));
    answered(await post('{"password": BAREWORDMARKER}', { Authorization: `Bearer ${secret}` }));
    answered(await fetch(`${t.url}?email=QUERY-MARKER-get`, { headers: { Authorization: `Bearer ${secret}` } }));
    answered(await post("{}", {}, `${server.url}/webhooks/UNKNOWN-TOKEN-MARKER?sig=QUERY-MARKER-u`));
    const { hostname, port } = new URL(server.url);
    const refused = await rawHttp(
      { host: hostname, port: Number(port) },
      `POST /webhooks/${t.token}?sig=QUERY-MARKER-e HTTP/1.1\r\nHost: x\r\nX-Big: ${"HEADER-MARKER-big".repeat(4096)}\r\nContent-Length: 2\r\n\r\n{}`,
    );
    ids.set(refused.match(/x-request-id: (\S+)/i)![1], Number(refused.slice(9, 12)));
    expect([...ids.values()]).toEqual([200, 401, 400, 405, 404, 431]);
    // The management API is not the request log's.
    await api(`/api/triggers/${t.id}/activity`);

    const logged = () =>
      server
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.msg === "webhook");
    const lines = await waitFor("a log line for every webhook request", () => logged().length >= ids.size && logged());
    expect(lines).toHaveLength(ids.size);
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(LINE_KEYS);
      expect(line.status).toBe(ids.get(line.requestId)!);
      expect(line.triggerId).toBe(line.status === 404 ? null : t.id);
    }
    expect(lines.map((l) => l.outcome)).toEqual(["run", "auth_failed", "rejected", "rejected", "not_found", "rejected"]);
    // The edge's refusal is counted with the others in /metrics too.
    expect(await (await fetch(`${server.url}/metrics`)).text()).toContain(`inlet_webhook_requests_total{trigger="${t.id}",outcome="rejected",status="431"} 1`);

    // Nor does the reason an invalid body's Activity row keeps quote it.
    const activity = await (await api(`/api/triggers/${t.id}/activity`)).text();
    expect(activity).toContain("body is not valid JSON");
    expect(activity).not.toContain("BAREWORDMARKER");

    server.proc.kill("SIGTERM");
    expect(await server.proc.exited).toBe(0);
    const everything = server.output() + server.errors();
    for (const leak of ["MARKER", secret, t.token, ADMIN, "sig="]) expect(everything).not.toContain(leak);
  } finally {
    server.proc.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
});
