/**
 * Ignored authentication: every request that succeeded in the run is sent again without a key,
 * with a well-formed key no server issued and with the other family's key. Each must be refused
 * with the family's 401 (judged under the profile: family A's 401 body and status are decisions,
 * so under seed any 4xx with the family's error body) and must not return the record: the
 * refusal carries none of the ids the success carried.
 */
import { createdIdOf } from "./id-links.ts";
import { replayOf, successes } from "./traffic.ts";
import { describe, type Credentials, type DerivedEnv } from "./shared.ts";

export const STATEMENTS = { "family-a": ["A-AUTH-AUTH-header"], "family-b": ["B-AUTH-ERROR-unauthorized", "B-AUTH-AUTH-header", "B-AUTH-HEADER-x-api-key"] };

export async function run(env: DerivedEnv): Promise<void> {
  const byOperation = new Map(successes(env).map((s) => [s.op.operationId, s]));
  const variants: Array<[string, Credentials | undefined]> = [
    ["no-key", "none"],
    ["unissued-key", "invalid"],
    ["other-family-key", env.otherFamilyKey ? { raw: env.otherFamilyKey, label: "other family's primary" } : undefined],
  ];
  for (const [operationId, seen] of byOperation) {
    const ids = [createdIdOf(seen.response), ...Object.values(seen.op.pathParams)].filter((id): id is string => !!id && id.length >= 6);
    for (const [variant, credentials] of variants) {
      const title = `a request that succeeded, sent again with ${variant.replace(/-/g, " ")}, is refused with 401`;
      if (!credentials) {
        env.notApplicable(operationId, variant, title, "the target names no server of the other family");
        continue;
      }
      const request = replayOf(env, seen);
      const response = await env.send(request, credentials);
      const problems: string[] = [];
      if (response.status < 400 || response.status >= 500) problems.push(`answered ${describe(response)}; expected the family's 401`);
      else problems.push(...env.ctx.problems(operationId, "401", response).map((p) => `401: ${p}`));
      for (const id of ids) if (response.body.includes(id)) problems.push(`the refusal carries the record's id ${id}`);
      env.judge(
        { operationId, variant, title, covers: env.covered(operationId, response.status), statements: STATEMENTS[env.family], reproduction: env.reproduce(request, credentials) },
        problems,
      );
    }
  }
}
