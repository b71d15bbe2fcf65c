/**
 * Runs the Dredd suite of one family (the 3.0 document) against a server, in this process.
 *
 * Dredd turns every documented response into a transaction. The hooks (suite-hooks.ts) make each of them
 * a real request that the server must answer with that response (the request of the response's
 * first check, see src/checks/), and make Dredd's validation the contract's:
 *
 * - `expected.bodySchema` is the draft-07 schema of the response under the profile (Dredd by
 *   itself only compares the body with the example's keys: no types, formats, patterns, enums);
 * - the status code and Content-Type are compared as the profile says (Dredd compares both as
 *   exact strings: `application/json; charset=utf-8` would fail against `application/json`);
 * - headers the contract requires (Retry-After on 429) must be present, and present headers
 *   must have the documented type; the error code the document states must be in the body.
 *
 * Dredd's requests go through a local pacing proxy so that they respect the server's rate
 * limits like every other request of the run.
 */
import { startPacingProxy } from "../core/pacing-proxy.ts";
import { dreddInstalled, dreddMissing, runDredd, type DreddHooks } from "./dredd-library.ts";
import { SuiteHooks, type DreddSuiteOptions } from "./suite-hooks.ts";

export { boundChecks } from "./bound-checks.ts";
export { gavelSchema } from "./gavel-schema.ts";
export type { DreddSuiteOptions } from "./suite-hooks.ts";

/** Where the hook file (hooks.cjs) finds the suites by the id Dredd's configuration carries. */
const REGISTRY = Symbol.for("payment-collection.conformance.dredd-suites");
type Registry = Map<string, (hooks: DreddHooks) => void>;

let suiteCounter = 0;

/** Runs the family's Dredd suite for one stage; resolves when every transaction is done. */
export async function runDreddSuite(options: DreddSuiteOptions): Promise<void> {
  if (!dreddInstalled()) throw new Error(dreddMissing());
  const { ctx, stage } = options;
  const proxy = await startPacingProxy(ctx.target.baseUrl, ctx.pacer, (headers) =>
    ctx.bucketOfKey(headers[ctx.contract.apiKeyHeader.toLowerCase()]),
  );
  const registry = suiteRegistry();
  const suiteId = `${ctx.family}-${stage}-${++suiteCounter}`;
  registry.set(suiteId, new SuiteHooks(options).install);
  try {
    await runDredd({ endpoint: proxy.url, document: ctx.contract.dreddDocument, suiteId });
  } finally {
    registry.delete(suiteId);
    await proxy.close();
  }
}

/** The suites the hook file can install, shared through the global object (Dredd loads hooks.cjs with its own require). */
function suiteRegistry(): Registry {
  const global = globalThis as Record<symbol, unknown>;
  const registry = (global[REGISTRY] as Registry | undefined) ?? new Map();
  global[REGISTRY] = registry;
  return registry;
}
