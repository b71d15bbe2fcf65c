/**
 * Idempotency key space per API key: on every operation that takes an idempotency header, one
 * idempotency key sent under another account's key, and under a second key of the same account
 * when the target names one (`primarySecondKey`), creates a record of its own, never the first
 * key's record; the first key still replays its own record.
 */
import type { ContractOperation } from "@payment-collection/contract/model/index.ts";
import { createdIdOf, lastLiteral, pathParameters, readerOfResource } from "./id-links.ts";
import { idempotencyHeaders, plannedRequest, replayOf, successes } from "./traffic.ts";
import { describe, is2xx, jsonOf, type DerivedEnv, type PlannedRequest } from "./shared.ts";
import type { KeyName } from "../core/check-context.ts";
import { asserted, decisionBehind, type ContractElement } from "../core/profiles/document-word.ts";

async function pair(env: DerivedEnv, op: ContractOperation, other: KeyName): Promise<void> {
  const variant = other === "secondAccount" ? "another-account" : "second-key-same-account";
  const title = `one idempotency key under ${other === "secondAccount" ? "another account's key" : "a second key of the same account"} creates its own record`;
  await env.attempt(op.operationId, variant, title, async () => {
    env.ctx.keyValue(other);
    const exemplar = successes(env, op.operationId).pop();
    if (!exemplar) return env.notApplicable(op.operationId, variant, title, "the run made no such record");
    const fresh = replayOf(env, exemplar);
    const shared = env.ctx.idempotencyKey();
    const request: PlannedRequest = { ...fresh, headers: Object.fromEntries(Object.entries(fresh.headers).map(([n, v]) => [n, idempotencyHeaders(op).some((h) => h.toLowerCase() === n.toLowerCase()) ? shared : v])) };
    const first = await env.send(request, "primary");
    if (!is2xx(first)) return env.notApplicable(op.operationId, variant, title, `the creation answered ${describe(first)} this time`);
    const second = await env.send(request, other);
    const again = await env.send(request, "primary");
    const [mine, theirs, replay] = [first, second, again].map((r) => createdIdOf(jsonOf(r.body)));
    const problems: string[] = [];
    // A record whose id the run cannot find (a body the project decided, under seed) cannot be compared by id.
    if (is2xx(second) && mine !== undefined && theirs === mine) problems.push(`the ${other} key got the primary key's record ${mine} for the same idempotency key`);
    // Without ids, the same body twice is a stored response; not where the body is a decision (seed): its envelope alone may repeat.
    const documented = op.responses.find((r) => r.status === String(first.status)) ?? op.responses.find((r) => r.status.startsWith("2"));
    const bodyStated = !documented || env.ctx.expectation(op.operationId, documented.status).bodySchema !== undefined;
    if (is2xx(second) && !theirs && bodyStated && second.body === first.body) problems.push(`the ${other} key got the primary key's stored response`);
    if (is2xx(again) && replay !== mine) problems.push(`the primary key's replay returned ${replay ?? "no record"}, not its own ${mine}`);
    // A second key of the same account is of that account: it reads the record the first key made
    // (else "another key space" could be another account's, and the rule would not be shown).
    const reader = other === "primarySecondKey" && mine !== undefined ? readerOfResource(env.ctx.contract, lastLiteral(op.path) ?? "") : undefined;
    if (reader) {
      const parameter = pathParameters(reader)[0]!;
      const read = await env.send(plannedRequest(env, reader, { [parameter]: mine! }), other);
      if (!is2xx(read)) problems.push(`the second key of the same account could not read the record ${mine} the primary key made: ${reader.operationId} answered ${describe(read)}`);
    }
    env.judge(
      { operationId: op.operationId, variant, title, covers: env.covered(op.operationId, second.status), reproduction: [env.reproduce(request, "primary"), env.reproduce(request, other)].join("\n") },
      problems,
    );
  });
}

/** The behaviour an `x-decided-behaviour` marking names when the key space per API key is a decision. */
export const KEY_SPACE = "idempotency key space";

/** What a key space per API key rests on: the idempotency header and the scoping rule, as elements to ask the profile about. */
export function perApiKeyElements(op: ContractOperation): ContractElement[] {
  return [...idempotencyHeaderElements(op), { kind: "behaviour", node: op, about: KEY_SPACE }];
}

/** The operation's idempotency header parameters, as elements to ask the profile about. */
export function idempotencyHeaderElements(op: ContractOperation): ContractElement[] {
  const names = idempotencyHeaders(op).map((n) => n.toLowerCase());
  return op.parameters.filter((p) => p.in === "header" && names.includes(p.name.toLowerCase())).map((parameter) => ({ kind: "parameter", parameter, operation: op }));
}

export async function run(env: DerivedEnv): Promise<void> {
  for (const op of env.ctx.contract.operations) {
    if (env.stopped) break;
    if (idempotencyHeaders(op).length === 0) continue;
    // Another account never gets this account's record, whoever decided the header: that is the
    // document's tenant isolation. Two keys of one account are two key spaces only where the
    // header and its scoping per API key are the document's (family A's rule 4; D36 in family B).
    await pair(env, op, "secondAccount");
    const decided = perApiKeyElements(op).find((element) => !asserted(env.ctx.profile, element));
    if (decided) {
      const title = "one idempotency key under a second key of the same account creates its own record";
      const what = decided.kind === "behaviour" ? "the scoping of its idempotency keys per API key" : "its idempotency header";
      env.notApplicable(op.operationId, "second-key-same-account", title, `${what} (${op.operationId}) is decision ${decisionBehind(decided)}, not the document's word (checked under --profile full)`);
      continue;
    }
    await pair(env, op, "primarySecondKey");
  }
}
