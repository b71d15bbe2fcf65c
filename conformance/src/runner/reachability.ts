/**
 * Whether a server answers at all, and why not in words: "connection refused", "host not
 * found", "no answer within 10 s". Used before the run (preflight) and between its suites.
 */
import { connect } from "node:net";

/** One short reason for a failed request (fetch wraps the network error as its cause). */
export function connectionProblem(error: unknown, timeoutMs?: number): string {
  const err = error as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  if (err.name === "TimeoutError" || err.name === "AbortError") return `no answer within ${Math.round((timeoutMs ?? 0) / 1000)} s`;
  const code = err.cause?.code ?? err.code;
  const known: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ENOTFOUND: "host not found",
    EAI_AGAIN: "host name lookup failed",
    ECONNRESET: "connection reset",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
    ETIMEDOUT: "connection timed out",
    UND_ERR_CONNECT_TIMEOUT: "connection timed out",
    UND_ERR_SOCKET: "connection closed",
  };
  if (code && known[code]) return known[code];
  return (err.cause?.message ?? err.message ?? String(error)).split("\n")[0]!;
}

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
