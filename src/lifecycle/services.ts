/** A part of the running server that must be stopped: a loop, a pool, a listener, the store. */
export interface Service {
  /** For the log line when stopping it fails. */
  readonly name: string;
  stop(): unknown;
}

/**
 * The one owner of what a server started: services are added as they start, in order, and
 * stopped in reverse — on shutdown, and when a later step of the start fails — so that each is
 * stopped while what it uses is still there (the listener before the pools its requests use,
 * the store last).
 *
 * @example
 * ```ts
 * const services = new Services(log);
 * services.add({ name: "store", stop: () => store.close() });
 * services.add(await startedQueue());
 * await services.stop(); // the queue, then the store
 * ```
 */
export class Services {
  private readonly started: Service[] = [];
  private stopping: Promise<void> | null = null;

  constructor(private readonly onError: (service: string, error: unknown) => void = () => {}) {}

  /** `service` is running: it will be stopped, after every service added later. Returns it. */
  add<T extends Service>(service: T): T {
    this.started.push(service);
    return service;
  }

  /** Stops every service in reverse order of start, each once; a failing stop does not keep the rest running. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      while (this.started.length > 0) {
        const service = this.started.pop()!;
        try {
          await service.stop();
        } catch (error) {
          this.onError(service.name, error);
        }
      }
    })();
    return this.stopping;
  }
}
