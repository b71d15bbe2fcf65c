/**
 * Which check is running, for what a request does not say by itself: the exchange log tags each
 * request with the check that sent it (also the data a check provisions on its way), and the
 * run's made-up values are drawn per check (run-random.ts), so that one check's draws do not
 * shift another's. Set by the one place each kind of check runs (a probe, a scenario, a unit of
 * a generic check class); Dredd's requests name their check in a header instead.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<string>();

/** Runs `work` as the check `id`: every request it sends, awaited or not, is the check's. */
export function inCheck<T>(id: string, work: () => Promise<T>): Promise<T> {
  return scope.run(id, work);
}

/** The check running here, if any. */
export function currentCheck(): string | undefined {
  return scope.getStore();
}
