/**
 * A hold on the worker's clock-driven work: the scenario engine's tick and the campaign dispatcher,
 * which act at today's time. The demo history takes it while it runs the engine over past moments
 * (first start of the embedded demo): a tick at today's time would take the journeys it writes at
 * past moments, and the dispatcher would send their queued mails, today. The manual clock's route
 * takes it while it moves the clock and ticks, so that its answer comes after every journey due by
 * then has moved. A run while held is left out, not queued (the next comes within seconds); taking
 * the hold waits for runs under way.
 */
export class ClockHold {
  #holders = 0;
  readonly #running = new Set<Promise<unknown>>();

  get held(): boolean {
    return this.#holders > 0;
  }

  /** Runs `work` unless the hold is taken. */
  async run(work: () => Promise<unknown>): Promise<void> {
    if (this.held) return;
    const running = work();
    this.#running.add(running);
    try {
      await running;
    } finally {
      this.#running.delete(running);
    }
  }

  /** Runs `fn` with the hold taken, once the runs under way have ended. */
  async during<T>(fn: () => Promise<T>): Promise<T> {
    this.#holders++;
    try {
      await Promise.allSettled([...this.#running]);
      return await fn();
    } finally {
      this.#holders--;
    }
  }
}
