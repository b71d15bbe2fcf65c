/**
 * The hooks of one Dredd suite (one family, one stage). Each transaction is bound to the check
 * of its documented response; the hooks then, in Dredd's order:
 *
 * - beforeAll: order the transactions as the checks are ordered;
 * - beforeEach: skip what is not this stage's, else build the check's request (using up the
 *   rate limit first in the exhaust stage);
 * - beforeEachValidation: make Dredd's expectations the contract's under the profile;
 * - afterEach: record the check's verdict, from our reading of the response and Dredd's.
 */
import { mediaTypeAccepted, statusAccepted } from "../core/profiles/response-expectation.ts";
import { checkId, extraProblems, mockRequest, notApplicableAfterResponse, notApplicableBeforeRun, type ResponseCheck } from "../checks/response-check.ts";
import { NotApplicable, type FamilyContext, type SentRequest } from "../core/check-context.ts";
import { LimitNotEnforced } from "../core/exhaust.ts";
import { inCheck } from "../core/check-scope.ts";
import { CHECK_HEADER, EXPECT_429_HEADER } from "../core/pacing-proxy.ts";
import type { CheckResult } from "../core/results.ts";
import type { ObservedResponse } from "../core/validate.ts";
import type { DreddHooks, DreddTransaction } from "./dredd-library.ts";
import { boundChecks } from "./bound-checks.ts";
import { gavelSchema } from "./gavel-schema.ts";

export interface DreddSuiteOptions {
  ctx: FamilyContext;
  /** The family's checks; the first per (operation, status) and stage is bound to Dredd. */
  checks: ResponseCheck[];
  stage: "main" | "exhaust";
  /** Called once per check with its result. */
  record(check: ResponseCheck, result: SuiteResult): void;
  /** Exhaust stage: uses up the account's limit; returns why it could not (not applicable). */
  exhaust?: (ctx: FamilyContext) => Promise<string | undefined>;
  /** True once the run is to stop: the transactions not begun yet are skipped, with no result. */
  stopped?: () => boolean;
}

type SuiteResult = Omit<CheckResult, "statements" | "id" | "source" | "family" | "title" | "profile" | "covers">;

function observed(real: NonNullable<DreddTransaction["real"]>): ObservedResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(real.headers)) headers[name.toLowerCase()] = String(value);
  return { status: real.statusCode, headers, body: real.body ?? "" };
}

export class SuiteHooks {
  private readonly ctx: FamilyContext;
  private readonly stage: "main" | "exhaust";
  private readonly bound: Map<string, ResponseCheck>;
  private readonly opByRoute: Map<string, string>;
  /**
   * Bound once per transaction: the hooks later rewrite `expected.statusCode` (a class of
   * codes under seed), which must not change which check the transaction is.
   */
  private readonly boundTo = new Map<string, ResponseCheck | undefined>();
  private readonly started = new Map<string, number>();
  /** Transaction name -> not-applicable reason. */
  private readonly decided = new Map<string, string>();
  /** Transaction name -> the request built for it. */
  private readonly sent = new Map<string, SentRequest>();
  private readonly recorded = new Set<string>();

  constructor(private readonly options: DreddSuiteOptions) {
    this.ctx = options.ctx;
    this.stage = options.stage;
    this.bound = boundChecks(options.checks);
    this.opByRoute = new Map(this.ctx.contract.operations.map((op) => [`${op.method} ${op.path}`, op.operationId]));
  }

  /** What the hook file calls with Dredd's hooks. */
  readonly install = (hooks: DreddHooks): void => {
    hooks.beforeAll((transactions, done) => {
      this.order(transactions);
      done();
    });
    hooks.beforeEach((t, done) => this.beforeEach(t, done));
    hooks.beforeEachValidation((t, done) => this.beforeEachValidation(t, done));
    hooks.afterEach((t, done) => {
      this.afterEach(t);
      done();
    });
  };

  private checkOf(t: DreddTransaction): ResponseCheck | undefined {
    if (!this.boundTo.has(t.name)) {
      const operationId = this.opByRoute.get(`${t.request.method.toUpperCase()} ${t.origin.resourceName}`);
      this.boundTo.set(t.name, this.bound.get(`${operationId} ${t.expected.statusCode}`));
    }
    return this.boundTo.get(t.name);
  }

  private record(t: DreddTransaction, check: ResponseCheck, result: SuiteResult): void {
    if (this.recorded.has(t.name)) return;
    this.recorded.add(t.name);
    this.options.record(check, result);
  }

  private elapsed(t: DreddTransaction): number {
    return Date.now() - (this.started.get(t.name) ?? Date.now());
  }

  /** Run order: the checks' own order, then the contract's. Dredd iterates this very array. */
  private order(transactions: DreddTransaction[]): void {
    const position = new Map(transactions.map((t, i) => [t, i]));
    transactions.sort((x, y) => (this.checkOf(x)?.order ?? 0) - (this.checkOf(y)?.order ?? 0) || position.get(x)! - position.get(y)!);
  }

  private beforeEach(t: DreddTransaction, done: () => void): void {
    const check = this.checkOf(t);
    // Another stage's transaction (or an undocumented one), or the run stops: not run, not recorded.
    if (!check || (check.stage ?? "main") !== this.stage || this.options.stopped?.()) {
      t.skip = true;
      done();
      return;
    }
    this.started.set(t.name, Date.now());
    // As the check: what it provisions or uses up on its way is its own.
    inCheck(checkId(check), () => this.prepare(t, check))
      .catch((error: unknown) => this.notPrepared(t, check, error))
      .finally(done);
  }

  private skip(t: DreddTransaction, check: ResponseCheck, reason: string): void {
    t.skip = true;
    this.record(t, check, { verdict: "not-applicable", reasons: [reason], durationMs: 0, decisions: [] });
  }

  /** Builds the check's request into the transaction, or skips it with the reason it cannot run. */
  private async prepare(t: DreddTransaction, check: ResponseCheck): Promise<void> {
    const { ctx, options } = this;
    const before = notApplicableBeforeRun(check, ctx, true);
    if (before) return this.skip(t, check, before);
    if (this.stage === "exhaust" && options.exhaust && !ctx.mock) {
      const why = await options.exhaust(ctx);
      if (why) return this.skip(t, check, why);
    }
    const request = ctx.buildRequest(check.operationId, ctx.mock ? mockRequest(ctx, check) : await check.request(ctx));
    const expect429 = check.stage === "exhaust";
    t.fullPath = request.path;
    t.request.uri = request.path;
    t.request.headers = { ...request.headers, [CHECK_HEADER]: checkId(check), ...(expect429 ? { [EXPECT_429_HEADER]: "1" } : {}) };
    t.request.body = request.body ?? "";
    this.sent.set(t.name, request);
  }

  private notPrepared(t: DreddTransaction, check: ResponseCheck, error: unknown): void {
    if (error instanceof LimitNotEnforced) {
      t.skip = true;
      this.record(t, check, { verdict: "fail", reasons: [error.message], durationMs: 0, decisions: [] });
    } else if (error instanceof NotApplicable) this.skip(t, check, error.message);
    else this.skip(t, check, `could not prepare the request: ${(error as Error).message}`);
  }

  private beforeEachValidation(t: DreddTransaction, done: () => void): void {
    const { ctx, options } = this;
    const check = this.checkOf(t);
    const request = this.sent.get(t.name);
    const renewed = this.stage === "exhaust" && !ctx.mock && options.exhaust && check && request && t.real && t.real.statusCode !== 429;
    if (!renewed) {
      this.prepareValidation(t);
      done();
      return;
    }
    // The window renewed between using it up and this request: use it up again and send the
    // request once more, as the careful client the suite is.
    inCheck(checkId(check), async () => {
      if (await options.exhaust!(ctx)) return;
      const again = await ctx.sendBuilt(request, { expect429: true, checkId: checkId(check) });
      t.real = { statusCode: again.status, headers: { ...again.headers }, body: again.body };
    })
      .catch(() => {})
      .finally(() => {
        this.prepareValidation(t);
        done();
      });
  }

  /** Makes Dredd's expectations the contract's under the profile, for this response. */
  private prepareValidation(t: DreddTransaction): void {
    const check = this.checkOf(t);
    if (!check || !t.real) return;
    const response = observed(t.real);
    const alternative = notApplicableAfterResponse(this.ctx, check, response);
    if (alternative) this.decided.set(t.name, alternative);
    const expectation = this.ctx.expectation(check.operationId, check.status, check.errorCode);
    // Status: the profile may accept a class of codes; Gavel compares exact strings.
    if (statusAccepted(expectation.statusRule, response.status)) t.expected.statusCode = String(response.status);
    // Headers: only what the contract requires; Content-Type by media type, not by string.
    const expectedHeaders: Record<string, string> = {};
    const hasBody = response.body.length > 0;
    if (expectation.mediaType && (expectation.bodySchema || hasBody)) {
      expectedHeaders["Content-Type"] = expectation.mediaType.documented;
      if (mediaTypeAccepted(expectation.mediaType, response.headers["content-type"])) {
        t.real.headers["content-type"] = expectation.mediaType.documented;
      }
    }
    for (const header of expectation.headers) if (header.required) expectedHeaders[header.name] = "required";
    t.expected.headers = expectedHeaders;
    // Body: the contract's schema under the profile, or nothing when the profile leaves it open.
    delete t.expected.body;
    if (expectation.bodySchema) t.expected.bodySchema = gavelSchema(expectation.bodySchema);
    else delete t.expected.bodySchema;
  }

  /** Records the verdict of a transaction that ran. */
  private afterEach(t: DreddTransaction): void {
    const { ctx } = this;
    const check = this.checkOf(t);
    if (!check || t.skip || this.recorded.has(t.name)) return;
    if (!t.real) {
      this.record(t, check, { verdict: "fail", reasons: [`no response: ${t.test?.message ?? "the request failed"}`], durationMs: this.elapsed(t), decisions: [] });
      return;
    }
    const response = observed(t.real);
    const expectation = ctx.expectation(check.operationId, check.status, check.errorCode);
    const notApplicable = this.decided.get(t.name);
    if (notApplicable) {
      this.record(t, check, { verdict: "not-applicable", reasons: [notApplicable], durationMs: this.elapsed(t), decisions: expectation.decisions });
      return;
    }
    const reasons = this.problems(t, check, response);
    if (reasons.length === 0) check.after?.(ctx, response);
    this.record(t, check, { verdict: reasons.length === 0 ? "pass" : "fail", reasons, durationMs: this.elapsed(t), decisions: expectation.decisions });
  }

  /**
   * Our own reading of the same response (ajv 8 with every format, header values) and what
   * Dredd cannot express (the stated error code); Dredd's verdict counts too.
   */
  private problems(t: DreddTransaction, check: ResponseCheck, response: ObservedResponse): string[] {
    const reasons = [...this.ctx.problems(check.operationId, check.status, response, check.errorCode), ...extraProblems(this.ctx, check, response)];
    const dreddFailed = t.test?.valid === false;
    if (dreddFailed && reasons.length === 0) {
      reasons.push(...(t.test?.message ?? "").split("\n").filter(Boolean).map((line) => `dredd: ${line}`));
    }
    if (!dreddFailed && reasons.length > 0) t.fail = reasons.join("; ");
    return reasons;
  }
}
