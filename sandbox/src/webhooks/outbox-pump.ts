/**
 * The outbox pump: claims the due events and starts an attempt at each (`deliver`, delivery.ts),
 * then sleeps until the next one is due. An attempt that settles wakes it, so the events it
 * claims next are started without waiting for the timer. While the store is unavailable it
 * looks again every second and logs the outage once.
 */
import type { ClaimedEvent, SandboxStore } from "../store/types.ts";

/** Longest delay setTimeout accepts. */
// Stryker disable next-line ArithmeticOperator: a longer delay fires at once (Node's timeout overflow), so an idle pump looks at the outbox again every millisecond: when each event is due, and so when it is sent, is unchanged
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Events claimed per look at the outbox. */
const CLAIM_BATCH = 100;

export interface PumpOptions {
  /** Store events but send nothing. */
  paused: boolean;
  /** This instance's name, under which it claims events. */
  instance: string;
  /** On a shared store, how often to look for due events besides this instance's own wake-ups (ms). */
  pollIntervalMs: number;
}

export interface OutboxPump {
  /** Looks for due events now. Never throws. */
  wake(): void;
  /** Claims nothing more and stops the timer. */
  stop(): void;
  /** Resolves once the attempts started so far have settled. */
  settled(): Promise<void>;
}

/** How long the pump may sleep: until the next event is due, or the poll interval on a shared store. */
async function sleepMs(store: SandboxStore, pollIntervalMs: number): Promise<number> {
  const next = await store.outboxNextDueMs();
  const wait = next === undefined ? MAX_TIMER_MS : Math.min(MAX_TIMER_MS, Math.max(0, next - Date.now()));
  // Another instance may write events, or die holding leases: a shared store is polled.
  return store.info.shared ? Math.min(wait, pollIntervalMs) : wait;
}

/** Logs an outage of the outbox's store when it begins and when it ends, not at every look. */
function outageLog(): { unavailable(error: Error): void; available(): void } {
  let unavailableSince: number | undefined;
  return {
    unavailable(error) {
      if (unavailableSince !== undefined) return;
      unavailableSince = Date.now();
      console.error(`sandbox: webhook outbox unavailable: ${error.message}`);
    },
    available() {
      if (unavailableSince === undefined) return;
      console.error(`sandbox: webhook outbox available again after ${Date.now() - unavailableSince} ms`);
      unavailableSince = undefined;
    },
  };
}

/** The pump's timer: arming it again replaces the earlier one; it keeps no process alive (unref). */
function pumpTimer(run: () => void): { arm(ms: number): void; clear(): void } {
  let timer: NodeJS.Timeout | undefined;
  return {
    arm(ms) {
      clearTimeout(timer);
      timer = setTimeout(run, ms);
      timer.unref();
    },
    // Stryker disable next-line BlockStatement: the timer of a pump being closed (the sandbox's shutdown): a look it still makes finds the pump closed and returns
    clear() {
      clearTimeout(timer);
    },
  };
}

/**
 * Keeps an attempt in `inFlight` until it settles (so that closing can wait for it), logs its
 * failure unless the pump was stopped meanwhile, then calls `settled` (the pump looks again).
 */
function track(inFlight: Set<Promise<void>>, attempt: Promise<void>, stopped: () => boolean, settled: () => void): void {
  const running: Promise<void> = attempt
    .catch((error: unknown) => {
      if (!stopped()) console.error("sandbox: webhook delivery failed", error);
    })
    .finally(() => {
      inFlight.delete(running);
      settled();
    });
  inFlight.add(running);
}

/**
 * Starts the pump: events left by an earlier run (a restart) are picked up at once. Each claim
 * leases its events until `leaseUntilMs(now)`.
 */
export function startOutboxPump(
  store: SandboxStore,
  options: PumpOptions,
  leaseUntilMs: (nowMs: number) => number,
  deliver: (event: ClaimedEvent) => Promise<void>,
): OutboxPump {
  const inFlight = new Set<Promise<void>>();
  const outage = outageLog();
  // Runs the pump again after the delay it is armed with.
  const timer = pumpTimer(() => void pump());
  let pumping = false;
  // Stryker disable next-line BooleanLiteral: starting with a wake-up pending only makes the first look claim again from an outbox it just claimed from
  let pumpAgain = false;
  let closed = false;

  /** Claims and starts the due events, again while a claim comes back full or a wake-up came meanwhile. */
  async function startDueEvents(): Promise<void> {
    let claimed = 0;
    do {
      pumpAgain = false;
      const nowMs = Date.now();
      const due = closed ? [] : await store.outboxClaim(nowMs, CLAIM_BATCH, leaseUntilMs(nowMs), options.instance);
      claimed = due.length;
      for (const event of due) {
        if (closed) break;
        track(inFlight, deliver(event), () => closed, () => void pump());
      }
    } while ((pumpAgain || claimed === CLAIM_BATCH) && !closed);
  }

  /** Starts every due event, then sleeps until the next one is due. */
  async function pump(): Promise<void> {
    if (closed || options.paused) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    // Stryker disable next-line BooleanLiteral: two looks that overlap claim each due event once between them (a claim leases what it takes, in one transaction), and each arms the one timer
    pumping = true;
    try {
      await startDueEvents();
      if (closed) return;
      const wait = await sleepMs(store, options.pollIntervalMs);
      outage.available();
      timer.arm(wait);
    } catch (error) {
      if (!closed) {
        // The database is down (or restarting): look again shortly, log once per outage.
        outage.unavailable(error as Error);
        timer.arm(1000);
      }
    } finally {
      pumping = false;
    }
  }

  // Events left by an earlier run (a restart) are picked up at start.
  void pump();

  return {
    wake() {
      void pump();
    },
    // Stryker disable next-line BlockStatement: closing is the sandbox's shutdown, after which it answers no client
    stop() {
      // Stryker disable next-line BooleanLiteral: closing is the sandbox's shutdown, after which it answers no client
      closed = true;
      timer.clear();
    },
    // Stryker disable next-line BlockStatement: waiting for the attempts in flight is the sandbox's shutdown, after which it answers no client
    async settled() {
      // Stryker disable next-line ArrayDeclaration: waiting for the attempts in flight is the sandbox's shutdown, after which it answers no client
      await Promise.allSettled([...inFlight]);
    },
  };
}
