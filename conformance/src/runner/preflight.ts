/**
 * Before a run, per family: the server answers, and every key the target gives is accepted.
 * A run against a host that is down, or with a key the server refuses, would only yield pages
 * of failures that say nothing of the server; this stops it first with one line per problem.
 *
 * Each key is sent once to an authenticated operation picked from the contract (a GET with no
 * parameters to fill that documents a 401); any answer but 401 means the key is known (a 403
 * of a key without a scope is still a key the server accepts). Against the Prism mock, which
 * accepts any key present, only reachability is checked.
 */
import { Pacer, type WireExchange } from "../core/pacing.ts";
import { FamilyContext, type KeyChoice, type KeyName } from "../core/check-context.ts";
import { familyName, loadFamilyContract, type ContractOperation, type FamilyContract, type FamilyId } from "@payment-collection/contract/model/index.ts";
import { familyTarget, TARGET_KEYS, type Target } from "../core/target.ts";
import { connectionProblem } from "./reachability.ts";

export interface PreflightOptions {
  families: FamilyId[];
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** Build output to read the contract from (default generated/). */
  generatedDir?: string;
  /** Every exchange, for a recording of the command (its bundle). */
  onExchange?: (exchange: WireExchange) => void;
}

/** The operation a key is tried on: authenticated, documents 401, needs nothing but the key. */
export function keyCheckOperation(contract: FamilyContract): ContractOperation {
  const candidates = contract.operations.filter(
    (op) =>
      op.method === "GET" &&
      op.security.length > 0 &&
      op.responses.some((r) => r.status === "401") &&
      !op.parameters.some((p) => p.required && (p.in === "path" || p.in === "query")),
  );
  // An operation no scope guards answers every valid key the same way.
  const [operation] = [...candidates].sort((x, y) => x.requiredScopes.length - y.requiredScopes.length);
  if (!operation) throw new Error(`${contract.title}: no authenticated GET without parameters documents a 401 to try the keys on`);
  return operation;
}

/** The problems found, one line each; empty when every family may run. */
export async function preflight(target: Target, options: PreflightOptions): Promise<string[]> {
  const problems: string[] = [];
  const timeoutMs = options.timeoutMs ?? 10_000;
  for (const family of options.families) {
    const server = familyTarget(target, family);
    if (!server) continue;
    const contract = loadFamilyContract(family, options.generatedDir);
    // One try per key: no pacing, no second attempt after a 429.
    const pacer = new Pacer({ maxRetries: 0, timeoutMs, onExchange: options.onExchange });
    const ctx = new FamilyContext(family, contract, "seed", server, pacer, target.mock === "prism");
    const operation = keyCheckOperation(contract);
    // A live server refuses test keys (the document's rule, which a check verifies): the
    // `testKey` of a live target is given to be refused, not to be accepted.
    const refusedByDesign = (name: KeyName) => name === "testKey" && (server as { environment?: string }).environment === "live";
    const given = (Object.entries(server.keys) as Array<[KeyName, string | undefined]>).filter(([name, value]) => !!value && !refusedByDesign(name)).map(([name]) => name);
    // Without keys (or against the mock), one request without a key shows the server answers.
    const tries: KeyChoice[] = target.mock === "prism" || given.length === 0 ? ["none"] : given;
    for (const key of tries) {
      const request = ctx.buildRequest(operation.operationId, { key });
      let status: number;
      try {
        status = (await pacer.send({ method: request.method, url: request.url, headers: request.headers, checkId: "preflight" })).status;
      } catch (error) {
        problems.push(`${familyName(family)}: cannot reach ${server.baseUrl} (${connectionProblem(error, timeoutMs)}); start the server, or fix ${TARGET_KEYS[family]}.baseUrl in the target`);
        break;
      }
      if (status === 401 && key !== "none") problems.push(`${familyName(family)}: key \`${key}\` was refused (401) by ${request.url}; give a key this server accepts in ${TARGET_KEYS[family]}.keys.${key}`);
    }
  }
  return problems;
}
