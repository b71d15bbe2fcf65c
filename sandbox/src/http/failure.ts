/**
 * The answer to a request the pipeline failed on: it never ends without one, and never hangs.
 * Only two failures get here, neither of which a request can cause on the SQLite store the
 * conformance suites run against: a store that cannot be reached (StoreUnavailableError, which
 * only the PostgreSQL store raises while its database is down: D42's 503 with Retry-After,
 * proven by sandbox/test/postgres/outage.test.ts), and a bug (500; the sandbox's tests assert
 * that no request gets one). sandbox/test/failure.test.ts proves both answers and the
 * connection dropped when the answer had begun. Left out of mutation testing for that reason.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { commonError, surfaceOfPath } from "../envelopes.ts";
import { StoreUnavailableError } from "../store/types.ts";
import { send } from "./reply.ts";

export function answerFailure(error: unknown, req: IncomingMessage, res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const surface = surfaceOfPath((req.url ?? "/").split("?")[0]);
  if (error instanceof StoreUnavailableError) {
    // The database is down or restarting: a 503 the client may retry, never a 500 or a hang.
    const reply = commonError(surface, "SERVICE_UNAVAILABLE", `The sandbox's database is unavailable (${error.message}); retry in ${error.retryAfterSeconds} s.`);
    send(res, { ...reply, headers: { ...reply.headers, "Retry-After": String(error.retryAfterSeconds) } });
    return;
  }
  // A bug, never an expected outcome.
  console.error("sandbox: unexpected error", error);
  send(res, commonError(surface, "INTERNAL_ERROR", "Unexpected error in the sandbox."));
}
