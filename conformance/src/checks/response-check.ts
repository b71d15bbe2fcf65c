/**
 * A response check: one request that should make the server answer one documented response of
 * one operation, and the verdict on that answer. The first check of each (operation, status)
 * runs as the Dredd transaction of that response; further variants of the same response (a
 * missing key where Dredd sends an invalid one, a 7-character idempotency key...) run as probes
 * through the same context and the same validation.
 */
import { asserted, decisionBehind, type Profile } from "../core/profiles/document-word.ts";
import { NotApplicable, type FamilyContext, type KeyChoice, type RequestOptions } from "../core/check-context.ts";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import type { CheckResult } from "../core/results.ts";
import { errorCodeProblems, type ObservedResponse } from "../core/validate.ts";
import { inCheck } from "../core/check-scope.ts";

export interface ResponseCheck {
  family: FamilyId;
  operationId: string;
  /** The documented status the check makes the server answer. */
  status: string;
  /** Short slug, unique per (operation, status): `invalid-key`, `unknown-id`. */
  variant: string;
  /** What the request does, for the report: "missing Idempotency-Key". */
  title: string;
  /**
   * `full` when the outcome itself is a decision of the project (the document does not say the
   * server must answer this way): the check is not applicable under `seed`.
   */
  profile?: Profile;
  /** With `profile: full`: the decision behind the outcome. */
  decision?: string;
  /**
   * A behaviour of the operation the check holds the server to (`x-rate-limits`: the operation
   * counts against rate limits); when a decision marks it, the check is not applicable under seed.
   */
  behaviour?: string;
  /**
   * With `behaviour`: the decision is only whether the server has the behaviour, and what it
   * does when it has it is the document's word (family A's 429 for an exceeded limit). Under
   * seed the check runs, and is not applicable where the server does not show the behaviour.
   */
  runsWhereShown?: boolean;
  /** Why no client request can provoke this response (then always not applicable). */
  unreachable?: string;
  /** Order among the checks of the family (default 0, lower first; ties keep the contract's order). */
  order?: number;
  /** `exhaust` checks need a rate limit used up; they run after every other check. */
  stage?: "main" | "exhaust";
  /** The stable error code the document states for this outcome. */
  errorCode?: string;
  /** Statement ids the check enforces beyond those derived from the catalogue's encodings. */
  statements?: string[];
  /** The request to send; throws NotApplicable when a key, fixture or prerequisite is missing. */
  request(ctx: FamilyContext): Promise<RequestOptions>;
  /**
   * When the server may legitimately answer otherwise (a race it won, a choice the document
   * leaves open): returns why the response makes the check not applicable.
   */
  alternative?(ctx: FamilyContext, response: ObservedResponse): string | undefined;
  /** Extra problems the response shows beyond the documented response's expectation. */
  assess?(ctx: FamilyContext, response: ObservedResponse): string[];
  /** Keeps what later checks need (created ids...). */
  after?(ctx: FamilyContext, response: ObservedResponse): void;
}

export function checkId(check: Pick<ResponseCheck, "family" | "operationId" | "status" | "variant">): string {
  return `${check.family}/${check.operationId}/${check.status}/${check.variant}`;
}

/**
 * Why a check cannot run here, before any request: unreachable, a decision under seed, or a
 * stateless mock for checks that need server behaviour. Undefined when it can run.
 */
export function notApplicableBeforeRun(check: ResponseCheck, ctx: FamilyContext, boundToDredd: boolean): string | undefined {
  // A mock answers any documented response on request, even one no client could provoke.
  if (check.unreachable && !ctx.mock) return check.unreachable;
  if (check.profile === "full" && ctx.profile === "seed") {
    return `decision ${check.decision ?? "of the project"}: the document does not state this outcome (checked under --profile full)`;
  }
  if (check.behaviour) {
    const behaviour = { kind: "behaviour" as const, node: ctx.operation(check.operationId), about: check.behaviour };
    if (!asserted(ctx.profile, behaviour) && !check.runsWhereShown) {
      return `decision ${decisionBehind(behaviour)}: the document does not state that ${check.operationId} has this behaviour (${check.behaviour}; checked under --profile full)`;
    }
  }
  if (ctx.mock && !boundToDredd) return "a stateless mock answers the response a request names (Prefer: code); this request variant needs the server's own logic";
  return undefined;
}

/**
 * Why a response makes the check not applicable rather than failed: the check's own
 * alternative outcome, or, under seed, a request body whose whole shape is a decision (PIX and transaction endpoints)
 * may not be what the server expects: a refusal of it is not a failure, it is not applicable.
 */
export function notApplicableAfterResponse(ctx: FamilyContext, check: ResponseCheck, response: ObservedResponse): string | undefined {
  if (!ctx.mock && check.alternative) {
    const reason = check.alternative(ctx, response);
    if (reason) return reason;
  }
  if (!check.status.startsWith("2")) return undefined;
  const body = ctx.operation(check.operationId).requestBody;
  const requestShape = body && { kind: "schema" as const, schema: body.schema };
  if (!requestShape || asserted(ctx.profile, requestShape)) return undefined;
  if (response.status < 400 || response.status >= 500) return undefined;
  const decision = decisionBehind(requestShape);
  return `the server refused the contract's request shape (${response.status}); the document leaves the request of ${check.operationId} to the server (decision ${decision})`;
}

/** Problems beyond the expectation: the stated error code, and the check's own assessment. */
export function extraProblems(ctx: FamilyContext, check: ResponseCheck, response: ObservedResponse): string[] {
  const problems: string[] = [];
  if (check.errorCode) problems.push(...errorCodeProblems(check.errorCode, response));
  if (check.assess) problems.push(...check.assess(ctx, response));
  return problems;
}

/** In a mock run every check asks Prism for its documented response by status. */
export function mockRequest(ctx: FamilyContext, check: ResponseCheck): RequestOptions {
  const op = ctx.operation(check.operationId);
  const headers: Record<string, string> = { prefer: `code=${check.status}` };
  for (const p of op.parameters) if (p.in === "header" && p.example !== undefined) headers[p.name] = ctx.idempotencyKey();
  return {
    key: "primary",
    headers,
    body: op.requestBody?.example,
    expect429: check.status === "429",
  };
}

export interface CheckOutcome {
  verdict: CheckResult["verdict"];
  reasons: string[];
}

/** Runs a check as a probe (outside Dredd) and returns its verdict. */
export async function runProbe(check: ResponseCheck, ctx: FamilyContext): Promise<CheckOutcome> {
  const skip = notApplicableBeforeRun(check, ctx, false);
  if (skip) return { verdict: "not-applicable", reasons: [skip] };
  return inCheck(checkId(check), () => probe(check, ctx));
}

async function probe(check: ResponseCheck, ctx: FamilyContext): Promise<CheckOutcome> {
  let options: RequestOptions;
  try {
    options = ctx.mock ? mockRequest(ctx, check) : await check.request(ctx);
  } catch (error) {
    if (error instanceof NotApplicable) return { verdict: "not-applicable", reasons: [error.message] };
    throw error;
  }
  const response = await ctx.send(check.operationId, { ...options, checkId: checkId(check) });
  const refused = notApplicableAfterResponse(ctx, check, response);
  if (refused) return { verdict: "not-applicable", reasons: [refused] };
  const problems = [...ctx.problems(check.operationId, check.status, response, check.errorCode), ...extraProblems(ctx, check, response)];
  if (problems.length === 0) check.after?.(ctx, response);
  return problems.length === 0 ? { verdict: "pass", reasons: [] } : { verdict: "fail", reasons: problems };
}

/**
 * The 401 checks of an operation: an invalid key (the Dredd transaction) and no key at all,
 * the same for both families but for the key header's name and the error code they name.
 */
export function refusedKeyChecks(
  family: FamilyId,
  operationId: string,
  request: (ctx: FamilyContext, key: KeyChoice) => Promise<RequestOptions>,
  refusal: { keyHeader: string; errorCode?: string },
): ResponseCheck[] {
  return (["invalid", "none"] as const).map((key) => ({
    family,
    operationId,
    status: "401",
    variant: key === "invalid" ? "invalid-key" : "missing-key",
    title: key === "invalid" ? "a key no server issued" : `no ${refusal.keyHeader} header`,
    ...(refusal.errorCode ? { errorCode: refusal.errorCode } : {}),
    request: (ctx) => request(ctx, key),
  }));
}

/**
 * The 429 of an operation, once the account's limit is used up (see the exhaust stage): the
 * same for both families, on the key the target gives to rate-limit checks.
 */
export function rateLimitedCheck(
  family: FamilyId,
  operationId: string,
  request: (ctx: FamilyContext) => Promise<RequestOptions>,
): ResponseCheck {
  return {
    family,
    operationId,
    status: "429",
    variant: "limit-exhausted",
    title: "the account's rate limit used up",
    stage: "exhaust",
    behaviour: "x-rate-limits",
    // Whether family A is limited is D09; that an exceeded limit answers 429 is the document's
    // (family A's errors table). A server with no limit to use up makes the check not applicable.
    runsWhereShown: true,
    request: async (ctx) => ({ key: ctx.rateLimitKey(), ...(await request(ctx)), expect429: true }),
  };
}
