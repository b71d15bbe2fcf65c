/**
 * A long-running command's end: it runs until SIGINT or SIGTERM, then closes what it started
 * (once, however often the signal comes) and resolves with exit code 0.
 */
export function untilStopped(close: () => Promise<void>): Promise<number> {
  return new Promise<number>((done) => {
    let stopping = false;
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.on(signal, () => {
        if (stopping) return;
        stopping = true;
        void close().then(() => done(0));
      });
    }
  });
}
