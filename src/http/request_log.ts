import { every, type Repeating } from "../lifecycle/every.ts";

/** One JSON line per webhook request: ids, outcome, status, duration. Never a body or a secret. */
export interface RequestLogEntry {
  requestId: string | null;
  triggerId: string | null;
  method: string;
  outcome: string;
  status: number;
  durationMs: number;
}

/** Writes log lines through a buffered writer so logging does not cost a syscall per request. */
export class RequestLog {
  private readonly writer = Bun.stdout.writer();
  private readonly flusher: Repeating | null = null;

  constructor(private readonly enabled: boolean) {
    if (enabled) this.flusher = every(200, () => this.writer.flush());
  }

  write(entry: RequestLogEntry): void {
    if (!this.enabled) return;
    this.writer.write(JSON.stringify({ time: new Date().toISOString(), level: "info", msg: "webhook", ...entry }) + "\n");
  }

  close(): void {
    void this.flusher?.stop();
    if (this.enabled) this.writer.flush();
  }
}

/** Operational messages (start, errors) as JSON lines on stderr. */
export function logEvent(level: "info" | "warn" | "error", msg: string, fields: Record<string, unknown> = {}): void {
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + "\n");
}
