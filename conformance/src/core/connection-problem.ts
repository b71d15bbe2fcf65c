/**
 * Why a request got no answer, in words: "connection refused", "connection closed", "no answer
 * within 10 s", read from the error's code or from its causes' (fetch's own message is only
 * "fetch failed", the network error its cause).
 */
const KNOWN: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ECONNRESET: "connection reset",
  EPIPE: "connection closed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  UND_ERR_SOCKET: "connection closed",
};

interface NetworkError {
  name?: string;
  message?: string;
  code?: string;
  cause?: unknown;
}

/** One short reason for a failed request, read down its chain of causes (fetch wraps the network error as its cause). */
export function connectionProblem(error: unknown, timeoutMs?: number): string {
  let innermost = error as NetworkError | undefined;
  for (let err = innermost; err; err = err.cause as NetworkError | undefined) {
    if (err.name === "TimeoutError" || err.name === "AbortError") return `no answer within ${Math.round((timeoutMs ?? 0) / 1000)} s`;
    if (err.code && KNOWN[err.code]) return KNOWN[err.code]!;
    innermost = err;
  }
  return (innermost?.message ?? String(error)).split("\n")[0]!;
}
