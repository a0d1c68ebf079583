import { InvalidXml } from "./parse_xml.ts";

/** From 16 KB (about 2 ms of parsing on the request thread), an XML body is parsed on its own thread. */
export const XML_THREAD_BYTES = 16 * 1024;

export interface XmlJob {
  id: number;
  bytes: Uint8Array;
}

/** The parsed value as JSON text; or the InvalidXml reason; or why the parser failed otherwise. */
export type XmlAnswer = { id: number; json: string } | { id: number; invalid: string } | { id: number; failed: string };

/**
 * The worker's module. In `dist/inlet` every module's `import.meta.url` is the executable's own,
 * and the worker is embedded (a build entry point) at its path from `src/`.
 */
const WORKER_URL = import.meta.url.startsWith("file:///$bunfs/") ? new URL("./ingest/xml_worker.ts", import.meta.url).href : new URL("./xml_worker.ts", import.meta.url).href;

/**
 * Parses large XML bodies on one worker thread, so that a sender of big XML documents (a 1 MiB
 * body takes ~100 ms to parse) never stalls the requests of every other trigger: theirs wait for
 * the parser thread, in arrival order, while the request thread goes on answering. Started on
 * first use; a worker that dies fails what it held and is started again for the next body.
 */
export class XmlParserThread {
  private worker: Worker | null = null;
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  constructor(private readonly spawn: () => Worker = () => new Worker(WORKER_URL)) {}

  /** The body parsed as parseXml would; rejects with InvalidXml (same reason) for a body it refuses. */
  parse(bytes: Uint8Array): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.started().postMessage({ id, bytes } satisfies XmlJob);
    });
  }

  /** Stops the worker; what it still held fails. */
  close(): void {
    this.fail(new Error("the XML parser thread was stopped"));
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = this.spawn();
    worker.onmessage = (event: MessageEvent<XmlAnswer>) => {
      const answer = event.data;
      const pending = this.waiting.get(answer.id);
      if (!pending) return;
      this.waiting.delete(answer.id);
      if ("json" in answer) pending.resolve(JSON.parse(answer.json));
      else if ("invalid" in answer) pending.reject(new InvalidXml(answer.invalid));
      else pending.reject(new Error(`the XML parser failed: ${answer.failed}`));
    };
    worker.onerror = (event) => this.lost(worker, new Error(`the XML parser thread failed: ${event.message}`));
    worker.addEventListener("close", () => this.lost(worker, new Error("the XML parser thread ended")));
    // Idle, it keeps nothing alive.
    (worker as Worker & { unref?(): void }).unref?.();
    this.worker = worker;
    return worker;
  }

  /** `worker` failed: if it is still the one in use, what it held fails and the next body starts another. */
  private lost(worker: Worker, error: Error): void {
    if (this.worker === worker) this.fail(error);
  }

  private fail(error: Error): void {
    const worker = this.worker;
    this.worker = null;
    worker?.terminate();
    const held = [...this.waiting.values()];
    this.waiting.clear();
    for (const pending of held) pending.reject(error);
  }
}

/** The process's XML parser thread. */
export const xmlParserThread = new XmlParserThread();
