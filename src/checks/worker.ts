// A sandbox worker: its own QuickJS, compiling and evaluating triggers' checks off the thread
// that answers requests. Started by CheckPool (pool.ts); one job at a time.
import { compileChecks } from "./compile.ts";
import { arrived, postCrossing } from "./crossing.ts";
import type { PreparedChecks } from "./prepared_checks.ts";
import type { CheckAnswer, CheckJob } from "./protocol.ts";

declare const self: Worker;

const MAX_COMPILED = 512;
const compiled = new Map<string, PreparedChecks>();

function checksFor(job: CheckJob): PreparedChecks {
  let checks = compiled.get(job.key);
  if (!checks) {
    checks = compileChecks(job.settings);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(job.key, checks);
  }
  return checks;
}

self.onmessage = async (event: MessageEvent<CheckJob>) => {
  const job = event.data;
  let result: unknown;
  try {
    const check = checksFor(job)[job.op];
    if (!check) throw Object.assign(new Error(`the trigger has no ${job.op} check`), { code: "sandbox_no_such_check" });
    result = await (check as (input: unknown) => unknown)(arrived(job.input));
  } catch (error) {
    const e = error as { name?: string; code?: unknown; message?: string };
    self.postMessage({
      id: job.id,
      ok: false,
      error: { name: e?.name ?? "Error", code: typeof e?.code === "string" ? e.code : undefined, message: e?.message || String(error) },
    } satisfies CheckAnswer);
    return;
  }
  // Selected values may hold an ExactNumber: then they cross as JSON text (see crossing.ts).
  postCrossing(self, result, (crossing) => ({ id: job.id, ok: true, result: crossing }) satisfies CheckAnswer);
};

// Told once the handler is in place: jobs are sent only after this.
self.postMessage({ ready: true });
