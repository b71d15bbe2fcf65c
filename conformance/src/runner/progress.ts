/**
 * Progress of a run, on stderr (stdout carries the report): which suite is running, how many
 * checks are done (of how many, when the suite knows), and the pacing waits with a countdown.
 *
 * On a terminal, one status line is redrawn in place; elsewhere (`--progress` in CI) plain lines
 * are printed, at most one progress line every 10 seconds. Quiet by default when stderr is not
 * a terminal or under CI; `--quiet` silences it.
 */
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import { familyName } from "@payment-collection/contract/model/index.ts";

export interface RunProgress {
  /** A suite starts; `checks` is how many checks it holds, when known beforehand. */
  suite(family: FamilyId, name: string, checks?: number): void;
  /** One more check has its verdict. */
  checked(): void;
  /** The pacer waits `ms` before sending more (a rate-limit window renews). */
  pause(ms: number, why: string): void;
  /** The run is over or stopped: clears the status line and stops the countdown. */
  end(): void;
}

export const NO_PROGRESS: RunProgress = { suite() {}, checked() {}, pause() {}, end() {} };

function suiteLine(family: FamilyId, name: string, checks?: number): string {
  return `${familyName(family)}: ${name}${checks !== undefined ? ` (${checks} checks)` : ""}`;
}

/** The plain lines of `runConformance({ log })`: suites and waits, no counting. */
export function progressFromLog(log?: (line: string) => void): RunProgress {
  if (!log) return NO_PROGRESS;
  return {
    suite: (family, name, checks) => log(suiteLine(family, name, checks)),
    checked() {},
    pause: (ms, why) => log(`  pacing: waiting ${Math.ceil(ms / 1000)} s: ${why}`),
    end() {},
  };
}

export type ProgressMode = "status" | "lines" | "off";

/** Whether and how to show progress: asked for, or on a terminal outside CI; never under --quiet. */
export function progressMode(options: { quiet: boolean; progress: boolean; isTTY: boolean; ci: string | undefined }): ProgressMode {
  if (options.quiet) return "off";
  const inCi = options.ci !== undefined && options.ci !== "" && options.ci !== "false" && options.ci !== "0";
  if (options.progress) return options.isTTY ? "status" : "lines";
  return options.isTTY && !inCi ? "status" : "off";
}

interface ProgressStream {
  write(text: string): unknown;
  columns?: number;
}

const LINES_EVERY_MS = 10_000;

/** Progress drawn on a stream (stderr) in the given mode. */
export function streamProgress(mode: ProgressMode, stream: ProgressStream): RunProgress {
  if (mode === "off") return NO_PROGRESS;
  let suite: { family: FamilyId; name: string; checks?: number; done: number } | undefined;
  let done = 0;
  let pauseUntil = 0;
  let pauseWhy = "";
  let ticker: NodeJS.Timeout | undefined;
  let drawn = false;
  let lastDraw = 0;

  const secondsLeft = () => Math.max(0, Math.ceil((pauseUntil - Date.now()) / 1000));
  const counts = () => {
    if (!suite) return `${done} checks done`;
    const ofSuite = suite.checks !== undefined ? `${suite.done} of ${suite.checks}` : `${suite.done}`;
    return `${suiteLine(suite.family, suite.name)}: ${ofSuite} checks · ${done} done in all`;
  };
  const pacing = () => (secondsLeft() > 0 ? `pacing: ${secondsLeft()} s left (${pauseWhy})` : "");

  const clear = () => {
    if (drawn) stream.write("\r\u001b[K");
    drawn = false;
  };
  const draw = (force = false) => {
    const now = Date.now();
    if (mode === "status") {
      if (!force && now - lastDraw < 100) return;
      const text = [counts(), pacing()].filter(Boolean).join(" · ");
      // Some terminals report no width (0): assume a common one.
      const width = Math.max(20, (stream.columns || 100) - 1);
      stream.write(`\r\u001b[K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
      drawn = true;
    } else {
      if (!force && now - lastDraw < LINES_EVERY_MS) return;
      stream.write(`  ${[counts(), pacing()].filter(Boolean).join(" · ")}\n`);
    }
    lastDraw = now;
  };
  const line = (text: string) => {
    clear();
    stream.write(`${text}\n`);
    if (mode === "status") draw(true);
  };
  const stopTicker = () => {
    if (ticker) clearInterval(ticker);
    ticker = undefined;
  };

  return {
    suite(family, name, checks) {
      suite = { family, name, checks, done: 0 };
      line(suiteLine(family, name, checks));
    },
    checked() {
      done += 1;
      if (suite) suite.done += 1;
      draw();
    },
    pause(ms, why) {
      const until = Date.now() + ms;
      if (until <= pauseUntil) return;
      pauseUntil = until;
      pauseWhy = why;
      if (mode === "lines") line(`  pacing: waiting ${secondsLeft()} s (${why})`);
      else draw(true);
      // The countdown: redrawn every second until the longest wait is over.
      ticker ??= setInterval(() => {
        if (secondsLeft() === 0) stopTicker();
        draw(mode === "status");
      }, 1000);
      ticker.unref();
    },
    end() {
      stopTicker();
      clear();
    },
  };
}
