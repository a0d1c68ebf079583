// Entry of the compiled-binary test: the sandbox, a filter and a redaction, run from a
// `bun build --compile` binary alone in an empty folder.
import { compileFilter, runFilter } from "../../src/filter/index.ts";
import { compileRedaction, redact } from "../../src/redact/index.ts";
import { SandboxTimeout } from "../../src/sandbox/index.ts";

function interrupted(): string {
  try {
    redact(compileRedaction(["^(a+)+$"]), { ["a".repeat(40) + "!"]: 1 });
    return "finished";
  } catch (error) {
    return error instanceof SandboxTimeout ? "timeout" : String(error);
  }
}

console.log(
  JSON.stringify({
    filter: runFilter(compileFilter('$.type == "invoice.paid" && match($.id, "in_[0-9]+")'), { type: "invoice.paid", id: "in_42" }),
    redacted: redact(compileRedaction(["pass(word)?", "^email$"]), { user: { email: "a@b.c", password: "x", name: "n" } }),
    timeout: interrupted(),
  }),
);
