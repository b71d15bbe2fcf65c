/**
 * Tenant isolation: the second account's key on every operation that takes the id of a record
 * of the first account (read, change, cancel, delete, status, QR code...) gets no success; a
 * change attempt leaves the record as the owner reads it; a list by the second account carries
 * none of the first account's record ids. Which operations take record ids is derived from the
 * path parameters and the records the run made (id-links.ts); 403 and 404 both pass. A request
 * whose body names a record of the first account (a linked member: the `endToEndId` a PIX
 * payment pays, a transaction's `customerId`) is refused to the second account too.
 */
import { pathParameters, isList, isLinkedMember } from "./id-links.ts";
import { freshRecord, knownIds, plannedRequest, readerOf, replayOf, successes } from "./traffic.ts";
import { createdIdOf } from "./id-links.ts";
import { describe, is2xx, isObject, jsonOf, sameValue, stable, type DerivedEnv, type PlannedRequest } from "./shared.ts";
import type { ContractOperation } from "@payment-collection/contract/model/index.ts";
import { asserted } from "../core/profiles/document-word.ts";
import { quoted } from "../core/describe-response.ts";

/** The owner's view of a record (undefined when it cannot be read). */
async function ownerRead(env: DerivedEnv, reader: ContractOperation | undefined, parameter: string, id: string): Promise<unknown> {
  if (!reader) return undefined;
  const response = await env.send(plannedRequest(env, reader, { [reader.parameters.find((p) => p.in === "path")?.name ?? parameter]: id }), "primary");
  return is2xx(response) ? stable(jsonOf(response.body)) : { status: response.status };
}

async function recordOperation(env: DerivedEnv, op: ContractOperation): Promise<void> {
  const [parameter] = pathParameters(op);
  const changes = op.method !== "GET";
  const title = `the second account cannot ${changes ? "change" : "read"} the first account's record`;
  await env.attempt(op.operationId, "second-account", title, async () => {
    env.ctx.keyValue("secondAccount");
    const exemplar = successes(env, op.operationId).pop();
    const id = changes ? await freshRecord(env, op, parameter!) : knownIds(env, op, parameter!)[0] ?? (await freshRecord(env, op, parameter!));
    const params = Object.fromEntries(pathParameters(op).map((p) => [p, id]));
    const built = plannedRequest(env, op, params, exemplar?.request);
    const request: PlannedRequest = exemplar && !changes ? { ...replayOf(env, exemplar), url: built.url } : built;
    const reader = changes ? readerOf(env, op, parameter!) : undefined;
    const before = await ownerRead(env, reader, parameter!, id);
    const response = await env.send(request, "secondAccount");
    const problems: string[] = [];
    if (is2xx(response) && (changes || response.body.includes(id))) problems.push(`the second account's key got ${describe(response)}`);
    if (response.status >= 500) problems.push(`the second account's valid key was answered ${response.status}`);
    if (reader) {
      const after = await ownerRead(env, reader, parameter!, id);
      if (!sameValue(before, after)) problems.push(`the owner's read of ${id} changed after the second account's attempt: ${quoted(after, 200)}`);
    }
    env.judge({ operationId: op.operationId, variant: "second-account", title, covers: env.covered(op.operationId, response.status), reproduction: env.reproduce(request, "secondAccount") }, problems);
  });
}

async function listOperation(env: DerivedEnv, op: ContractOperation): Promise<void> {
  const title = "a list by the second account carries none of the first account's records";
  await env.attempt(op.operationId, "second-account-list", title, async () => {
    env.ctx.keyValue("secondAccount");
    const mine = [...new Set(successes(env).map((s) => createdIdOf(s.response)).filter((id): id is string => !!id && id.length >= 6))];
    const exemplar = successes(env, op.operationId).pop();
    const request = exemplar ? replayOf(env, exemplar) : plannedRequest(env, op, {});
    const response = await env.send(request, "secondAccount");
    const leaked = mine.filter((id) => response.body.includes(id));
    const problems = leaked.length > 0 ? [`the second account's list carries the first account's records ${leaked.slice(0, 5).join(", ")}`] : [];
    if (response.status >= 500) problems.push(`answered ${response.status}`);
    env.judge({ operationId: op.operationId, variant: "second-account-list", title, covers: env.covered(op.operationId, response.status), reproduction: env.reproduce(request, "secondAccount") }, problems);
  });
}

/** The linked members of a request body and their values (the first account's records). */
function linkedValues(body: unknown): Array<[string, string]> {
  return isObject(body) ? Object.entries(body).filter((e): e is [string, string] => isLinkedMember(e[0]) && typeof e[1] === "string" && e[1].length > 0) : [];
}

async function linkedBodyOperation(env: DerivedEnv, op: ContractOperation): Promise<void> {
  const title = "the second account cannot use the first account's records a request body names";
  const exemplar = successes(env, op.operationId).filter((s) => linkedValues(s.request).length > 0).pop();
  if (!exemplar) return;
  // A body the document leaves to a decision (what a PIX payment pays) is judged under full only.
  if (op.requestBody && !asserted(env.ctx.profile, { kind: "schema", schema: op.requestBody.schema })) {
    return env.notApplicable(op.operationId, "second-account-linked", title, "the request body is a decision of the project (checked under --profile full)");
  }
  await env.attempt(op.operationId, "second-account-linked", title, async () => {
    env.ctx.keyValue("secondAccount");
    const request = replayOf(env, exemplar);
    const response = await env.send(request, "secondAccount");
    const named = linkedValues(exemplar.request).map(([name, value]) => `${name} ${value}`).join(", ");
    const problems = is2xx(response) ? [`the second account's key got ${describe(response)} for a body naming the first account's ${named}`] : [];
    if (response.status >= 500) problems.push(`the second account's valid key was answered ${response.status}`);
    env.judge({ operationId: op.operationId, variant: "second-account-linked", title, covers: env.covered(op.operationId, response.status), reproduction: env.reproduce(request, "secondAccount") }, problems);
  });
}

export async function run(env: DerivedEnv): Promise<void> {
  for (const op of env.ctx.contract.operations) {
    if (env.stopped) break;
    if (pathParameters(op).length > 0) await recordOperation(env, op);
    else if (isList(op)) await listOperation(env, op);
    else if (op.method !== "GET") await linkedBodyOperation(env, op);
  }
}
