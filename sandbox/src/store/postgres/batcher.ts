/**
 * Groups the calls made during one event-loop turn into one call of `run` (which answers them
 * in order); each caller gets its own answer, or the batch's error. Under load one round trip
 * and one transaction serve many requests; alone, a call waits one turn at most.
 */
export function batcher<T, R>(run: (items: T[]) => Promise<R[]>): (item: T) => Promise<R> {
  let pending: Array<{ item: T; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  const flush = async () => {
    const batch = pending;
    pending = [];
    try {
      const results = await run(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(results[i]));
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      pending.push({ item, resolve, reject });
      if (pending.length === 1) setImmediate(() => void flush());
    });
}
