/** Exit codes of a conformance run; a module of their own so that `--help` loads nothing else. */
export const EXIT = { pass: 0, failed: 1, stopped: 2 } as const;
