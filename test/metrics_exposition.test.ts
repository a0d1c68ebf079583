import { afterAll, beforeAll, expect, test } from "bun:test";
import { Metrics } from "../src/http/metrics.ts";
import { startTestServer, waitFor, type TestServer } from "./support/server.ts";

// `/metrics` must parse under the Prometheus text exposition format (0.0.4), whatever a trigger
// is called: a scraper that meets one bad line drops the whole scrape.

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface Family {
  type?: string;
  help?: string;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

/** The family a sample belongs to: histogram series carry a suffix. */
const familyOf = (name: string, families: Map<string, Family>) => {
  const base = name.replace(/_(bucket|sum|count)$/, "");
  return base !== name && families.get(base)?.type === "histogram" ? base : name;
};

/** `{a="x",b="y\"z"}` from `at` (the `{`): the labels, unescaped, and where the text after `}` starts. */
function parseLabels(line: string, at: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = at + 1;
  while (line[i] !== "}") {
    const eq = line.indexOf("=", i);
    const name = line.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`bad label name ${JSON.stringify(name)} in: ${line}`);
    if (name in labels) throw new Error(`label ${name} twice in: ${line}`);
    if (line[eq + 1] !== '"') throw new Error(`label value not quoted in: ${line}`);
    let value = "";
    for (i = eq + 2; line[i] !== '"'; i++) {
      if (i >= line.length) throw new Error(`unterminated label value in: ${line}`);
      if (line[i] !== "\\") value += line[i];
      else if (line[++i] === "n") value += "\n";
      else if (line[i] === "\\" || line[i] === '"') value += line[i];
      else throw new Error(`bad escape \\${line[i]} in: ${line}`);
    }
    labels[name] = value;
    i++;
    if (line[i] === ",") i++;
    else if (line[i] !== "}") throw new Error(`expected , or } at ${i} in: ${line}`);
  }
  return { labels, end: i + 1 };
}

const parseValue = (text: string, line: string) => {
  if (text === "+Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  if (text === "NaN") return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value ${JSON.stringify(text)} in: ${line}`);
  return Number(text);
};

/** Parses an exposition strictly: every rule a Prometheus scrape enforces, and the histogram invariants. */
function parseExposition(text: string): Map<string, Family> {
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a newline");
  const families = new Map<string, Family>();
  const family = (name: string) => families.get(name) ?? families.set(name, { samples: [] }).get(name)!;
  const closed = new Set<string>();
  const seen = new Set<string>();
  let current: string | null = null;
  const enter = (name: string) => {
    if (name === current) return;
    if (closed.has(name)) throw new Error(`the lines of ${name} are not together`);
    if (current) closed.add(current);
    current = name;
  };
  for (const line of text.slice(0, -1).split("\n")) {
    const meta = line.match(/^# (HELP|TYPE) (\S+) ?(.*)$/);
    if (meta) {
      const [, kind, name, rest] = meta;
      if (!METRIC_NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      enter(name);
      const f = family(name);
      if (kind === "TYPE") {
        if (f.type || f.samples.length) throw new Error(`TYPE of ${name} twice or after its samples`);
        if (!TYPES.has(rest)) throw new Error(`unknown type in: ${line}`);
        f.type = rest;
      } else {
        if (f.help !== undefined) throw new Error(`HELP of ${name} twice`);
        if (/\\[^\\n]|\\$/.test(rest)) throw new Error(`bad escape in HELP: ${line}`);
        f.help = rest;
      }
      continue;
    }
    if (line.startsWith("#") || line.trim() === "") continue;
    const name = line.match(/^[^{\s]+/)?.[0] ?? "";
    if (!METRIC_NAME.test(name)) throw new Error(`bad sample name in: ${line}`);
    const { labels, end } = line[name.length] === "{" ? parseLabels(line, name.length) : { labels: {}, end: name.length };
    const [value, timestamp, extra] = line.slice(end).trim().split(" ");
    if (line[end] !== " " || extra !== undefined || (timestamp !== undefined && !/^-?\d+$/.test(timestamp))) throw new Error(`bad sample: ${line}`);
    const owner = familyOf(name, families);
    enter(owner);
    const series = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(series)) throw new Error(`series twice: ${line}`);
    seen.add(series);
    family(owner).samples.push({ name, labels, value: parseValue(value, line) });
  }
  for (const [name, f] of families) if (f.type === "histogram") checkHistogram(name, f);
  return families;
}

/** Per label set: `le` ascending to `+Inf`, counts cumulative, `+Inf` = `_count`, a `_sum`. */
function checkHistogram(name: string, f: Family) {
  const groups = new Map<string, { buckets: Array<[number, number]>; sum?: number; count?: number }>();
  for (const s of f.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const g = groups.get(key) ?? groups.set(key, { buckets: [] }).get(key)!;
    if (s.name === `${name}_bucket`) g.buckets.push([parseValue(le ?? "missing", `le of ${name}`), s.value]);
    else if (s.name === `${name}_sum`) g.sum = s.value;
    else if (s.name === `${name}_count`) g.count = s.value;
    else throw new Error(`${s.name} in histogram ${name}`);
  }
  for (const [key, g] of groups) {
    const where = `${name}${key}`;
    if (g.sum === undefined || g.count === undefined) throw new Error(`${where}: no _sum or _count`);
    g.buckets.forEach(([le, count], i) => {
      if (i > 0 && (le <= g.buckets[i - 1][0] || count < g.buckets[i - 1][1])) throw new Error(`${where}: buckets not ascending and cumulative`);
    });
    const last = g.buckets.at(-1);
    if (!last || last[0] !== Infinity || last[1] !== g.count) throw new Error(`${where}: the +Inf bucket must come last and equal _count`);
  }
}

const AWKWARD = 'say "hi" \\ to\nthem';

test("label values with quotes, backslashes and newlines are escaped, and read back as they were", () => {
  const metrics = new Metrics();
  metrics.observe(AWKWARD, "run", 200, 0.003);
  metrics.observe(AWKWARD, "run", 200, 7);
  metrics.observe("plain", "auth_failed", 401, 0.0001);
  const families = parseExposition(
    metrics.render({ inlet_triggers: 2 }, [
      { name: "inlet_x", help: "x", values: { [AWKWARD]: 1 }, series: [{ labels: { trigger: AWKWARD, kind: "silence" }, value: 0 }] },
    ]),
  );
  const requests = families.get("inlet_webhook_requests_total")!;
  expect(requests.type).toBe("counter");
  expect(requests.samples).toContainEqual({ name: "inlet_webhook_requests_total", labels: { trigger: AWKWARD, outcome: "run", status: "200" }, value: 2 });
  const histogram = families.get("inlet_webhook_duration_seconds")!;
  expect(histogram.type).toBe("histogram");
  const awkward = histogram.samples.filter((s) => s.labels.trigger === AWKWARD);
  expect(awkward.find((s) => s.labels.le === "0.005")?.value).toBe(1);
  expect(awkward.find((s) => s.labels.le === "+Inf")?.value).toBe(2);
  expect(awkward.find((s) => s.name.endsWith("_sum"))?.value).toBeCloseTo(7.003);
  expect(families.get("inlet_x")!.samples.map((s) => s.labels)).toEqual([{ trigger: AWKWARD }, { trigger: AWKWARD, kind: "silence" }]);
});

test("the parser refuses what a scrape refuses", () => {
  const bad = [
    'a{t="x"} 1', // no final newline
    'a{t="x\\q"} 1\n',
    'a{t="x} 1\n',
    "a 1 2 3\n",
    "# TYPE a counter\n# TYPE a counter\na 1\n",
    "# TYPE a counter\na 1\nb 1\na 2\n",
    '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n',
    '# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n',
  ];
  for (const text of bad) expect(() => parseExposition(text)).toThrow();
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, ["--alert-interval", "1"]);
});
afterAll(() => server.close());

test("a live /metrics parses: outcome counters, latency histograms, alert and trigger series, whatever the trigger is called", async () => {
  const named = await server.createTrigger({ name: AWKWARD, auth: { type: "bearer" }, alerts: [{ kind: "backlog", count: 1000 }] });
  await server.fetch(named.url, { method: "POST", body: "{}" });
  await server.fetch(named.url, { method: "POST", body: "{}", headers: { Authorization: `Bearer ${named.secret}` } });
  await server.fetch(`${server.url}/webhooks/no-such-token`, { method: "POST", body: "{}" });
  const app = await server.createTrigger({ name: "pushes", app: "github" });
  const response = await waitFor("the alert rule's series", async () => {
    const r = await server.fetch(`${server.url}/metrics`);
    const text = await r.text();
    return text.includes(`inlet_alert_firing{trigger="${named.id}",kind="backlog"} 0`) && { r, text };
  });
  expect(response.r.status).toBe(200);
  expect(response.r.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  const families = parseExposition(response.text);
  const counts = families.get("inlet_webhook_requests_total")!.samples.filter((s) => s.labels.trigger === named.id);
  expect(counts.map((s) => [s.labels.outcome, s.labels.status, s.value]).sort()).toEqual([
    ["auth_failed", "401", 1],
    ["run", "200", 1],
  ]);
  const latency = families.get("inlet_webhook_duration_seconds")!.samples.filter((s) => s.labels.trigger === named.id);
  expect(latency.find((s) => s.name === "inlet_webhook_duration_seconds_count")?.value).toBe(2);
  expect(families.get("inlet_alert_firing")).toMatchObject({ type: "gauge", samples: [{ labels: { trigger: named.id, kind: "backlog" }, value: 0 }] });
  // Series are keyed by id (a rename keeps them); the name comes from an info series to join on.
  const info = families.get("inlet_trigger_info")!;
  expect(info.type).toBe("gauge");
  expect(info.samples).toContainEqual({ name: "inlet_trigger_info", labels: { trigger: named.id, name: AWKWARD }, value: 1 });
  expect(info.samples).toContainEqual({ name: "inlet_trigger_info", labels: { trigger: app.id, name: "pushes", app: "github" }, value: 1 });
});

test("/metrics shows the SQLite store's dedup index: its entries and the bytes it takes, which grow with the live keys", async () => {
  const gauges = async () => {
    const families = parseExposition(await (await server.fetch(`${server.url}/metrics`)).text());
    const value = (name: string) => {
      const family = families.get(name);
      expect(family?.type).toBe("gauge");
      return family!.samples[0].value;
    };
    return { keys: value("inlet_dedup_index_keys"), bytes: value("inlet_dedup_index_bytes") };
  };
  const before = await gauges();
  const keyed = await server.createTrigger({ name: "keyed", dedup: { strategy: "payload-hash", windowSeconds: 3600 } });
  for (let i = 0; i < 3; i++) expect((await server.fetch(keyed.url, { method: "POST", body: `{"n":${i}}` })).status).toBe(200);
  const after = await gauges();
  expect(after.keys).toBe(before.keys + 3);
  expect(after.bytes).toBeGreaterThanOrEqual(after.keys * 16);
});
