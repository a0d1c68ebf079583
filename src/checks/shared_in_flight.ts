/**
 * `evaluate` where concurrent calls that ask the same question (the same key) share one
 * evaluation: while one is in flight, another call with its key gets the same promise. Nothing is
 * remembered once it settles (a failure is not cached: the next call asks again).
 *
 * @example
 * ```ts
 * const classify = sharedInFlight((names: string[]) => JSON.stringify(names), (names) => worker.classify(names));
 * await Promise.all([classify(["email"]), classify(["email"])]); // one worker call
 * ```
 */
export function sharedInFlight<I, O>(keyOf: (input: I) => string, evaluate: (input: I) => Promise<O>): (input: I) => Promise<O> {
  const inFlight = new Map<string, Promise<O>>();
  return (input) => {
    const key = keyOf(input);
    const running = inFlight.get(key);
    if (running) return running;
    const started = evaluate(input).finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  };
}
