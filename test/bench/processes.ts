import { readFileSync } from "node:fs";

/** CPU time used so far by a process and by its children it has waited for (ms; /proc ticks are 10 ms). */
export function cpuMs(pid: number): { self: number; user: number; system: number; children: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // After the command name (which may hold spaces): state is field 3; utime, stime, cutime, cstime are 14–17.
  const fields = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
  return { self: (fields[11] + fields[12]) * 10, user: fields[11] * 10, system: fields[12] * 10, children: (fields[13] + fields[14]) * 10 };
}

/**
 * Starts a server on core 1 (taskset, where there is one; it execs, so the pid is the server's)
 * and resolves with the URL its stdout announces (`pattern`'s first group); the rest of its
 * output is drained. Rejects if it exits first. `core` "0" puts a helper (a target that receives
 * runs) beside wrk instead, off the server's core.
 */
export async function startPinned(
  command: string[],
  env: Record<string, string | undefined>,
  pattern: RegExp,
  cwd: string,
  core: "0" | "1" = "1",
): Promise<{ url: string; proc: Bun.Subprocess<"ignore", "pipe", "inherit"> }> {
  const pinned = Bun.which("taskset") ? ["taskset", "-c", core, ...command] : command;
  const proc = Bun.spawn(pinned, { cwd, env: { ...process.env, ...env }, stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!pattern.test(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`${command.join(" ")} exited: ${text}`);
    text += new TextDecoder().decode(value);
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return { url: text.match(pattern)![1], proc };
}
