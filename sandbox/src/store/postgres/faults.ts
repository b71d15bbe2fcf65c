/**
 * Which driver errors mean "the database cannot be reached now" (PostgreSQL down, restarting,
 * a query past its timeout): those become a `StoreUnavailableError`, which the pipeline
 * answers with 503 and Retry-After. Anything else (a bug, a constraint) is thrown as it is.
 */
import { StoreUnavailableError } from "../types.ts";

const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "57014", "57P01", "57P02", "57P03", "53300"]);

/** Whether an error means the database cannot be reached now (as opposed to a bug or a constraint). */
export function isUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  if (!e) return false;
  if (e.code && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith("08"))) return true;
  return /connection terminated|timeout|connection error|not queryable|connection closed|terminating connection|the database system is (starting|shutting) down|Client was closed|after calling end on the pool/i.test(e.message ?? "");
}

/** Rethrows `error`, as a StoreUnavailableError when the database cannot be reached. */
export function unavailable(error: unknown): never {
  if (isUnavailable(error)) throw new StoreUnavailableError((error as Error).message.split("\n")[0] || "PostgreSQL unreachable", 1);
  throw error;
}
