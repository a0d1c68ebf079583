import { InvalidXml } from "./parse_xml.ts";
import { workerUrl } from "../sandbox/worker_url.ts";

/** From 16 KB (about 2 ms of parsing on the request thread), an XML body is parsed on its own thread. */
export const XML_THREAD_BYTES = 16 * 1024;
/** Bodies waiting for the parser thread, in bytes, past which the next is refused (503, retry later). */
export const XML_THREAD_MAX_PENDING_BYTES = 32 * 1024 * 1024;

export interface XmlJob {
  id: number;
  bytes: Uint8Array;
}

/** The parsed value as JSON text; or the InvalidXml reason; or why the parser failed otherwise. */
export type XmlAnswer = { id: number; json: string } | { id: number; invalid: string } | { id: number; failed: string };

/** Too many XML bytes already wait for the parser thread: the request is answered 503, to be retried. */
export class XmlParserBusy extends Error {
  override name = "XmlParserBusy";
  readonly code = "xml_parser_busy";
}

/** The worker's module (embedded in `dist/inlet` as a build entry point). */
const WORKER_URL = workerUrl(import.meta.url, "ingest/xml_worker.ts");

/** How long the parser may take over one body: 5 s, and 4 s per MiB (it parses about 10 MiB a second). */
const deadlineFor = (bytes: number) => 5_000 + Math.ceil((bytes / (1024 * 1024)) * 4_000);

export interface XmlParserThreadOptions {
  spawn?: () => Worker;
  /** Milliseconds one body may take, by its size (tests shorten it). */
  deadlineMs?: (bytes: number) => number;
  maxPendingBytes?: number;
}

interface Job {
  id: number;
  bytes: Uint8Array;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * Parses large XML bodies on one worker thread, so that a sender of big XML documents (a 1 MiB
 * body takes ~100 ms to parse) never stalls the requests of every other trigger: theirs wait for
 * the parser thread, in arrival order, while the request thread goes on answering. Every body is
 * answered: one that outlasts its deadline is refused as invalid XML and the thread replaced; a
 * thread that dies fails the body it was on (the caller then parses it itself) and the bodies
 * behind it go to a new one; past XML_THREAD_MAX_PENDING_BYTES waiting, a body is refused at once.
 */
export class XmlParserThread {
  private worker: Worker | null = null;
  private next = 1;
  /** Bodies sent to the worker, in the order it takes them: the first is the one it is on. */
  private readonly jobs = new Map<number, Job>();
  private pendingBytes = 0;
  private watchdog: { id: number; timer: ReturnType<typeof setTimeout> } | null = null;
  private readonly spawn: () => Worker;
  private readonly deadlineMs: (bytes: number) => number;
  private readonly maxPendingBytes: number;

  constructor(options: XmlParserThreadOptions = {}) {
    this.spawn = options.spawn ?? (() => new Worker(WORKER_URL));
    this.deadlineMs = options.deadlineMs ?? deadlineFor;
    this.maxPendingBytes = options.maxPendingBytes ?? XML_THREAD_MAX_PENDING_BYTES;
  }

  /**
   * The body parsed as parseXml would; rejects with InvalidXml (the same reason) for a body it
   * refuses or that outlasts its deadline, XmlParserBusy when too much waits already, and a plain
   * Error when the thread died on it.
   */
  parse(bytes: Uint8Array): Promise<unknown> {
    if (this.jobs.size > 0 && this.pendingBytes + bytes.length > this.maxPendingBytes) {
      return Promise.reject(new XmlParserBusy(`${this.pendingBytes} bytes of XML already wait for the parser thread`));
    }
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.next++, bytes, resolve, reject };
      this.jobs.set(job.id, job);
      this.pendingBytes += bytes.length;
      this.started().postMessage({ id: job.id, bytes } satisfies XmlJob);
      this.watch();
    });
  }

  /** Stops the worker; what it still held fails. */
  close(): void {
    this.stopWorker();
    const held = [...this.jobs.values()];
    this.jobs.clear();
    this.pendingBytes = 0;
    for (const job of held) job.reject(new Error("the XML parser thread was stopped"));
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = this.spawn();
    worker.onmessage = (event: MessageEvent<XmlAnswer>) => {
      const answer = event.data;
      const job = this.take(answer.id);
      if (!job) return;
      if ("json" in answer) job.resolve(JSON.parse(answer.json));
      else if ("invalid" in answer) job.reject(new InvalidXml(answer.invalid));
      else job.reject(new Error(`the XML parser failed: ${answer.failed}`));
    };
    worker.onerror = (event) => this.lost(worker, `the XML parser thread failed: ${event.message}`);
    worker.addEventListener("close", () => this.lost(worker, "the XML parser thread ended"));
    // Idle, it keeps nothing alive.
    (worker as Worker & { unref?(): void }).unref?.();
    this.worker = worker;
    return worker;
  }

  /** The job answered (or given up), no longer waiting; the watchdog moves on to the next. */
  private take(id: number): Job | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    this.jobs.delete(id);
    this.pendingBytes -= job.bytes.length;
    this.watch();
    return job;
  }

  /** A deadline for the body the worker is on (the first waiting), set once when it gets there. */
  private watch(): void {
    const head = this.jobs.values().next().value as Job | undefined;
    if (this.watchdog && this.watchdog.id === head?.id) return;
    if (this.watchdog) clearTimeout(this.watchdog.timer);
    this.watchdog = null;
    if (!head) return;
    const ms = this.deadlineMs(head.bytes.length);
    const timer = setTimeout(() => this.restart(head, new InvalidXml(`XML could not be parsed within ${Math.round(ms / 100) / 10} s`)), ms);
    (timer as { unref?(): void }).unref?.();
    this.watchdog = { id: head.id, timer };
  }

  /** `worker` failed: if it is still the one in use, the body it was on fails and the rest go to a new one. */
  private lost(worker: Worker, reason: string): void {
    if (this.worker !== worker) return;
    const head = this.jobs.values().next().value as Job | undefined;
    if (head) this.restart(head, new Error(reason));
    else this.stopWorker();
  }

  /** Fails `culprit`, replaces the worker and sends it the bodies that were waiting behind. */
  private restart(culprit: Job, error: Error): void {
    this.stopWorker();
    if (this.take(culprit.id)) culprit.reject(error);
    for (const job of this.jobs.values()) this.started().postMessage({ id: job.id, bytes: job.bytes } satisfies XmlJob);
  }

  private stopWorker(): void {
    const worker = this.worker;
    this.worker = null;
    worker?.terminate();
  }
}

/** The process's XML parser thread. */
export const xmlParserThread = new XmlParserThread();
