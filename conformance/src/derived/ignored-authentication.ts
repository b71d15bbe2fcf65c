/**
 * Ignored authentication: every request that succeeded in the run is sent again without a key,
 * with a well-formed key no server issued and with the other family's key, and under `full`
 * with its key and the key also in the URL query (D46, every name a credential travels in, over
 * the operations in turn). Each must be refused
 * with the family's 401 (judged under the profile: family A's 401 body and status are decisions,
 * so under seed any 4xx with the family's error body) and must not return the record: the
 * refusal carries none of the ids the success carried. A change of a record (an update, a
 * delete, a cancel) is sent for a record nothing has changed yet, not the one the run already
 * deleted or cancelled: a server that ignores the key must have something to act on.
 */
import { CREDENTIAL_QUERY_SPELLINGS } from "@payment-collection/contract/domain/credential-query-names.ts";
import { FAMILY_IDS, type FamilyId } from "@payment-collection/contract/model/layout.ts";
import { TARGET_KEYS } from "../core/target.ts";
import { changesRecord, createdIdOf, pathParameters } from "./id-links.ts";
import { freshRecord, plannedRequest, replayOf, successes, type Seen } from "./traffic.ts";
import { describe, type Credentials, type DerivedEnv, type PlannedRequest } from "./shared.ts";

export async function run(env: DerivedEnv): Promise<void> {
  const byOperation = new Map(successes(env).map((s) => [s.op.operationId, s]));
  const variants: Array<[string, Credentials | undefined]> = [
    ["no-key", "none"],
    ["unissued-key", "invalid"],
    ["other-family-key", env.otherFamilyKey ? { raw: env.otherFamilyKey, label: "other family's primary" } : undefined],
  ];
  const inQuery = credentialsInQuery(env, byOperation.size);
  for (const [index, [operationId, seen]] of [...byOperation].entries()) {
    if (env.stopped) break;
    let untouched: Record<string, string> | undefined;
    // The ids the success carried: a refusal must carry none of them.
    const ids = () => [createdIdOf(seen.response), ...Object.values(seen.op.pathParams), ...Object.values(untouched ?? {})].filter((id): id is string => !!id && id.length >= 6);
    const requestOf = async (): Promise<PlannedRequest> => {
      if (!changesRecord(seen.op)) return replayOf(env, seen);
      untouched ??= await untouchedParams(env, seen);
      return plannedRequest(env, seen.op, untouched, seen.request);
    };
    for (const [variant, credentials] of variants) {
      const title = `a request that succeeded, sent again with ${variant.replace(/-/g, " ")}, is refused with 401`;
      if (!credentials) {
        env.notApplicable(operationId, variant, title, `the target names no ${TARGET_KEYS[otherFamily(env.family)]}.keys.primary (a key of the other family)`);
        continue;
      }
      await env.attempt(operationId, variant, title, async () => {
        const request = await requestOf();
        await refused(env, operationId, variant, title, request, credentials, ids());
      });
    }
    for (const name of inQuery(index)) {
      const variant = `key-also-in-query-${name}`;
      const title = `a request that succeeded, sent again with its key and the key also in the URL query as ${name}, is refused with 401 (D46)`;
      await env.attempt(operationId, variant, title, async () => {
        const request = await requestOf();
        const url = new URL(request.url);
        url.searchParams.set(name, env.keyOf("primary")!);
        await refused(env, operationId, variant, title, { ...request, url: url.toString() }, "primary", ids(), "D46");
      });
    }
  }
}

/**
 * D46 (full): the names of the query parameters a credential travels in that the operation at
 * an index is sent with, beside its valid key: every name once at least, over the operations in
 * turn, and every operation one name at least.
 */
function credentialsInQuery(env: DerivedEnv, operations: number): (index: number) => string[] {
  const decided = env.ctx.asserts({ kind: "behaviour", node: env.ctx.contract.document, about: "credential in the URL query" });
  if (!decided || operations === 0) return () => [];
  const names = CREDENTIAL_QUERY_SPELLINGS;
  const count = Math.max(operations, names.length);
  return (index) => Array.from({ length: count }, (_, j) => j).filter((j) => j % operations === index).map((j) => names[j % names.length]!);
}

/** Path parameters naming a record nothing has changed yet (a fresh one of each parameter's resource). */
async function untouchedParams(env: DerivedEnv, seen: Seen): Promise<Record<string, string>> {
  const params: Record<string, string> = {};
  for (const parameter of pathParameters(seen.op)) params[parameter] = await freshRecord(env, seen.op, parameter);
  return params;
}

/** Judges a request that must be refused with the family's 401 (`basis`: the decision that says so, when it is one). */
async function refused(env: DerivedEnv, operationId: string, variant: string, title: string, request: PlannedRequest, credentials: Credentials, ids: string[], basis?: string): Promise<void> {
  const response = await env.send(request, credentials);
  const problems: string[] = [];
  if (response.status < 400 || response.status >= 500) problems.push(`answered ${describe(response)}; expected the family's 401${basis ? ` (${basis})` : ""}`);
  else problems.push(...env.ctx.problems(operationId, "401", response).map((p) => `401: ${p}`));
  for (const id of ids) if (response.body.includes(id)) problems.push(`the refusal carries the record's id ${id}`);
  env.judge(
    // A key sent in the URL (D46's check) is written as $API_KEY there too.
    { operationId, variant, title, covers: env.covered(operationId, response.status), reproduction: redacted(env.reproduce(request, credentials), env.keyOf(credentials)) },
    problems,
  );
}

const otherFamily = (family: FamilyId): FamilyId => FAMILY_IDS.find((f) => f !== family)!;

const redacted = (text: string, key: string | undefined): string => (key ? text.split(encodeURIComponent(key)).join("$API_KEY").split(key).join("$API_KEY") : text);
