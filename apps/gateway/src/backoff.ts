// Exponential back-off with jitter, so that a fleet of modules does not reconnect in lock-step after an outage.
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly minMs: number,
    private readonly maxMs: number,
  ) {}

  /** The delay before the next attempt: doubling from minMs up to maxMs, then between half and all of it. */
  next(): number {
    const ceiling = Math.min(this.maxMs, this.minMs * 2 ** Math.min(this.attempt, 30));
    this.attempt += 1;
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  reset(): void {
    this.attempt = 0;
  }
}
