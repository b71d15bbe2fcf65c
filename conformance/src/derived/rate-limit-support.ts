/** Requests the rate-limit class repeats: the latest success of an operation, with a record id the run knows. */
import type { ContractOperation } from "@payment-collection/contract/model/index.ts";
import { pathParameters } from "./id-links.ts";
import { knownIds, plannedRequest, replayOf, successes } from "./traffic.ts";
import type { DerivedEnv, PlannedRequest } from "./shared.ts";

export { knownIds, pathParameters };

export function replayOfLatest(env: DerivedEnv, op: ContractOperation): PlannedRequest | undefined {
  const seen = successes(env, op.operationId).pop();
  if (seen) return replayOf(env, seen);
  const params: Record<string, string> = {};
  for (const p of pathParameters(op)) {
    const id = knownIds(env, op, p)[0];
    if (!id) return undefined;
    params[p] = id;
  }
  return plannedRequest(env, op, params);
}
