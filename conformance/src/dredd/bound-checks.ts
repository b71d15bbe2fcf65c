/** Which check the Dredd suite runs for each documented response: the others run as probes. */
import type { ResponseCheck } from "../checks/response-check.ts";

/** The check bound to each documented (operation, status): the first one in check order. */
export function boundChecks(checks: ResponseCheck[]): Map<string, ResponseCheck> {
  const bound = new Map<string, ResponseCheck>();
  for (const check of checks) {
    const key = `${check.operationId} ${check.status}`;
    if (!bound.has(key)) bound.set(key, check);
  }
  return bound;
}
