// How the simulator programs stop: on SIGINT or SIGTERM (the first one only) they say so, close what they
// started, in order, and exit.
export function closeOnSignals(...closers: (() => Promise<unknown> | undefined)[]): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: closing\n`);
    for (const close of closers) await close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
