// A timer that moves a simulator's time along with the wall clock, scaled (a simulated minute per real second at
// 60×). Unreferenced: the Modbus server keeps a process alive, a forgotten clock should not.
export class RealtimeClock {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly intervalMs: number,
    /** Simulated ms per real ms, read at each tick so a change counts at once. */
    private readonly scale: () => number,
    /** Moves the simulator on by simulated ms. */
    private readonly advance: (ms: number) => void,
  ) {}

  get running(): boolean {
    return this.timer !== undefined;
  }

  start(): void {
    if (this.timer) return;
    let last = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      this.advance((now - last) * this.scale());
      last = now;
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
