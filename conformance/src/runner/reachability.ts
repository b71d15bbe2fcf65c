/**
 * Whether a server answers at all, and why not in words: "connection refused", "host not
 * found", "no answer within 10 s". Used before the run (preflight) and between its suites.
 */
import { connect } from "node:net";
import { connectionProblem } from "../core/connection-problem.ts";

export { connectionProblem };

/** Opens (and closes) a TCP connection to the URL's host: undefined when it connects, else why not. */
export function tcpProblem(url: string, timeoutMs = 5_000): Promise<string | undefined> {
  const parsed = new URL(url);
  const port = Number(parsed.port || (parsed.protocol === "https:" ? 443 : 80));
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (problem: string | undefined) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${Math.round(timeoutMs / 1000)} s`));
    socket.once("connect", () => done(undefined));
    socket.once("error", (error) => done(connectionProblem(error)));
  });
}
