/**
 * Micro-benchmark of the sandboxed pre-execution checks: per-evaluation µs of a filter, a
 * 10-pattern redaction (warm name cache) and an expression dedup key, on a ~1 KB and a ~64 KB
 * Stripe-like body (the filter and patterns of README "Performance"'s sandbox case).
 *
 * `bun run test/bench/sandbox.ts`. Env: BENCH_ITERATIONS (5000 for 1 KB; a tenth of it for 64 KB).
 */
import { compileFilter, compileKeyQuery, runFilter, runKeyQuery } from "../../src/filter/index.ts";
import { compileRedaction, redact } from "../../src/redact/index.ts";
import { sampleBody } from "./body.ts";

const FILTER = '$.type == "invoice.paid" && $.data.object.amount > 100';
const KEY = "$.data.object.id";
const PII = ["pass(word)?", "^secret", "token$", "^api[_-]?key$", "ssn|social", "^(card|cc)[_-]?(num|number)?$", "cvv|cvc", "email", "phone", "^(dob|birth)"];
const iterations = Number(process.env.BENCH_ITERATIONS ?? 5000);

function measure(iterations: number, run: () => unknown): { median: number; p99: number } {
  for (let i = 0; i < Math.max(10, iterations / 10); i++) run();
  const samples = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    run();
    samples[i] = (performance.now() - started) * 1000;
  }
  samples.sort();
  return { median: samples[Math.floor(iterations / 2)], p99: samples[Math.floor(iterations * 0.99)] };
}

const format = (r: { median: number; p99: number }) => `${r.median.toFixed(1).padStart(8)} / ${r.p99.toFixed(1).padStart(8)}`;

console.log(`filter: ${FILTER}\nredaction: ${PII.length} patterns\n`);
console.log(`${"case".padEnd(34)} ${"median / p99 µs".padStart(19)}`);
for (const size of [1024, 65_536]) {
  const text = sampleBody(size);
  const body: unknown = JSON.parse(text);
  const n = size > 4096 ? Math.max(50, Math.floor(iterations / 10)) : iterations;
  const filter = compileFilter(FILTER);
  const key = compileKeyQuery(KEY);
  const redactor = compileRedaction(PII);
  const label = `${(text.length / 1024).toFixed(1)} KB`;

  const cold = performance.now();
  redact(compileRedaction(PII), body);
  console.log(`${`${label} redact, cold cache (once)`.padEnd(34)} ${`${((performance.now() - cold) * 1000).toFixed(1)}`.padStart(8)}`);
  console.log(`${`${label} filter`.padEnd(34)} ${format(measure(n, () => runFilter(filter, body)))}`);
  console.log(`${`${label} redact, warm cache`.padEnd(34)} ${format(measure(n, () => redact(redactor, body)))}`);
  console.log(`${`${label} filter + redact`.padEnd(34)} ${format(measure(n, () => runFilter(filter, body) && redact(redactor, body)))}`);
  console.log(`${`${label} dedup key query`.padEnd(34)} ${format(measure(n, () => runKeyQuery(key, body)))}`);
}
