/**
 * The console's configuration script (`assets/console-config.js`): the build writes the
 * default, `payment-collection portal` serves one naming the sandbox it started. Kept apart
 * from the console's data so the command loads nothing else to write it.
 */

/** What `assets/console-config.js` tells the console: the local sandbox's address and, when the portal started it, its keys. */
export interface ConsoleConfig {
  /** Base URL of the local sandbox (default http://127.0.0.1:4010, the sandbox's default port). */
  sandbox?: string;
  /** The sandbox's documented keys by service, offered when the reader picks the local sandbox. */
  sandboxKeys?: Record<string, string>;
}

/** The console's server when none is named: the sandbox's default address. */
export const DEFAULT_CONSOLE_SERVER = "http://127.0.0.1:4010";

export function consoleConfigScript(config: ConsoleConfig): string {
  return `window.PORTAL_CONSOLE_CONFIG = ${JSON.stringify({ sandbox: DEFAULT_CONSOLE_SERVER, ...config })};\n`;
}
