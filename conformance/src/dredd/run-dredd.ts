/**
 * Runs the Dredd suite of one family (the 3.0 document) against a server, in this process.
 *
 * Dredd turns every documented response into a transaction. The hooks here make each of them
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
import { EventEmitter } from "node:events";
import { statSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { JsonSchema } from "@payment-collection/contract/model/json-schema.ts";
import { mediaTypeAccepted, statusAccepted } from "../core/profiles/response-expectation.ts";
import {
  checkId,
  extraProblems,
  mockRequest,
  notApplicableAfterResponse,
  notApplicableBeforeRun,
  type ResponseCheck,
} from "../checks/response-check.ts";
import { NotApplicable, type FamilyContext, type SentRequest } from "../core/check-context.ts";
import { LimitNotEnforced } from "../core/exhaust.ts";
import { inCheck } from "../core/check-scope.ts";
import { CHECK_HEADER, EXPECT_429_HEADER, startPacingProxy } from "../core/pacing-proxy.ts";
import type { CheckResult } from "../core/results.ts";
import type { ObservedResponse } from "../core/validate.ts";

const require = createRequire(import.meta.url);
const HOOK_FILE = fileURLToPath(new URL("./hooks.cjs", import.meta.url));
const REGISTRY = Symbol.for("payment-collection.conformance.dredd-suites");

type Registry = Map<string, (hooks: DreddHooks) => void>;

/** The parts of Dredd's hooks API and transaction objects the suites use. */
interface DreddHooks {
  beforeAll(fn: (transactions: DreddTransaction[], done: () => void) => void): void;
  beforeEach(fn: (t: DreddTransaction, done: () => void) => void): void;
  beforeEachValidation(fn: (t: DreddTransaction, done: () => void) => void): void;
  afterEach(fn: (t: DreddTransaction, done: () => void) => void): void;
}

interface DreddTransaction {
  name: string;
  origin: { resourceName: string };
  request: { method: string; uri: string; headers: Record<string, string>; body: string };
  expected: { statusCode: string; headers: Record<string, string>; body?: string; bodySchema?: unknown };
  real?: { statusCode: number; headers: Record<string, string>; body: string };
  fullPath: string;
  skip: boolean;
  fail?: boolean | string;
  test?: { valid?: boolean; message?: string };
}

/** Formats ajv 6 (inside Dredd's validator, Gavel) knows; others make it throw, so they are left out. */
const GAVEL_FORMATS = new Set(["date", "time", "date-time", "uri", "uri-reference", "email", "hostname", "ipv4", "ipv6", "uuid", "regex"]);

/** The body schema as Gavel can use it: draft-07, without formats its ajv 6 does not know. */
export function gavelSchema(schema: JsonSchema): JsonSchema {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "format" && typeof value === "string" && !GAVEL_FORMATS.has(value)) continue;
      // Under "properties" the keys are property names, not keywords: copy them through strip too.
      out[key] = strip(value);
    }
    return out;
  };
  return { ...(strip(schema) as JsonSchema), $schema: "http://json-schema.org/draft-07/schema#" };
}

export interface DreddSuiteOptions {
  ctx: FamilyContext;
  /** The family's checks; the first per (operation, status) and stage is bound to Dredd. */
  checks: ResponseCheck[];
  stage: "main" | "exhaust";
  /** Called once per check with its result. */
  record(check: ResponseCheck, result: Omit<CheckResult, "statements" | "id" | "source" | "family" | "title" | "profile" | "covers">): void;
  /** Exhaust stage: uses up the account's limit; returns why it could not (not applicable). */
  exhaust?: (ctx: FamilyContext) => Promise<string | undefined>;
  /** True once the run is to stop: the transactions not begun yet are skipped, with no result. */
  stopped?: () => boolean;
}

/** The check bound to each documented (operation, status): the first one in check order. */
export function boundChecks(checks: ResponseCheck[]): Map<string, ResponseCheck> {
  const bound = new Map<string, ResponseCheck>();
  for (const check of checks) {
    const key = `${check.operationId} ${check.status}`;
    if (!bound.has(key)) bound.set(key, check);
  }
  return bound;
}

function observed(real: NonNullable<DreddTransaction["real"]>): ObservedResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(real.headers)) headers[name.toLowerCase()] = String(value);
  return { status: real.statusCode, headers, body: real.body ?? "" };
}

interface ParsedDescription {
  transactions: unknown[];
  annotations: unknown[];
  [key: string]: unknown;
}

interface DreddInstance {
  run(cb: (error: unknown, stats: unknown) => void): void;
  prepareAPIdescriptions(cb: (error: unknown, descriptions?: ParsedDescription[]) => void): void;
}

/**
 * Parsing a document takes Dredd a few seconds, and a run parses each document twice (main
 * and rate-limit stage); tests run many suites. The parsed transactions are kept per document
 * (and modification time) and each run gets its own copy, since Dredd changes them in place.
 *
 * The copy keeps only what Dredd reads after parsing (location, media type, annotations,
 * transactions): Dredd stores the descriptions in its configuration and deep-clones that for
 * the hooks, and the parse tree and document text made that clone most of a short run's time.
 */
const parsedDocuments = new Map<string, ParsedDescription[]>();

function reuseParsedDocument(dredd: DreddInstance, document: string): void {
  const key = `${document}@${statSync(document).mtimeMs}`;
  const parse = dredd.prepareAPIdescriptions.bind(dredd);
  const copy = (list: ParsedDescription[]): ParsedDescription[] =>
    list.map((d) => ({ location: d.location, mediaType: d.mediaType, annotations: [], transactions: JSON.parse(JSON.stringify(d.transactions)) as unknown[] }));
  dredd.prepareAPIdescriptions = (cb) => {
    const cached = parsedDocuments.get(key);
    if (cached) {
      cb(null, copy(cached));
      return;
    }
    parse((error, descriptions) => {
      if (error || !descriptions) return cb(error, descriptions);
      // The parser's warnings and errors are reported as Dredd does, on this first parse only.
      parsedDocuments.set(key, copy(descriptions));
      cb(null, copy(descriptions).map((d, i) => ({ ...d, annotations: descriptions[i]!.annotations })));
    });
  };
}

/**
 * Loads Dredd. Its logging library touches a missing export while loading, which Node reports
 * as a warning on every run ("Accessing non-existent property 'padLevels'"); that one warning is
 * not shown.
 */
function loadDredd(): unknown {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes("padLevels")) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return require("dredd");
  } finally {
    process.emitWarning = emitWarning;
  }
}

let suiteCounter = 0;

/** Runs the family's Dredd suite for one stage; resolves when every transaction is done. */
export async function runDreddSuite(options: DreddSuiteOptions): Promise<void> {
  const { ctx, stage } = options;
  const bound = boundChecks(options.checks);
  const opByRoute = new Map(ctx.contract.operations.map((op) => [`${op.method} ${op.path}`, op.operationId]));
  // Bound once per transaction: the hooks later rewrite `expected.statusCode` (a class of
  // codes under seed), which must not change which check the transaction is.
  const boundTo = new Map<string, ResponseCheck | undefined>();
  const checkOf = (t: DreddTransaction): ResponseCheck | undefined => {
    if (!boundTo.has(t.name)) {
      boundTo.set(t.name, bound.get(`${opByRoute.get(`${t.request.method.toUpperCase()} ${t.origin.resourceName}`)} ${t.expected.statusCode}`));
    }
    return boundTo.get(t.name);
  };

  const proxy = await startPacingProxy(ctx.target.baseUrl, ctx.pacer, (headers) =>
    ctx.bucketOfKey(headers[ctx.contract.apiKeyHeader.toLowerCase()]),
  );
  const started = new Map<string, number>();
  const decided = new Map<string, string>(); // transaction name -> not-applicable reason
  const sent = new Map<string, SentRequest>(); // transaction name -> the request built for it
  const recorded = new Set<string>();

  const record = (t: DreddTransaction, check: ResponseCheck, result: Parameters<DreddSuiteOptions["record"]>[1]) => {
    if (recorded.has(t.name)) return;
    recorded.add(t.name);
    options.record(check, result);
  };
  const elapsed = (t: DreddTransaction) => Date.now() - (started.get(t.name) ?? Date.now());

  const install = (hooks: DreddHooks): void => {
    hooks.beforeAll((transactions, done) => {
      // Run order: the checks' own order, then the contract's. Dredd iterates this very array.
      const position = new Map(transactions.map((t, i) => [t, i]));
      transactions.sort((x, y) => (checkOf(x)?.order ?? 0) - (checkOf(y)?.order ?? 0) || position.get(x)! - position.get(y)!);
      done();
    });

    hooks.beforeEach((t, done) => {
      const check = checkOf(t);
      if (!check || (check.stage ?? "main") !== stage) {
        t.skip = true; // another stage's transaction (or an undocumented one): not this run's
        done();
        return;
      }
      if (options.stopped?.()) {
        t.skip = true; // the run stops: not run, so not recorded either
        done();
        return;
      }
      started.set(t.name, Date.now());
      const skip = (reason: string) => {
        t.skip = true;
        record(t, check, { verdict: "not-applicable", reasons: [reason], durationMs: 0, decisions: [] });
      };
      const prepare = async () => {
        const before = notApplicableBeforeRun(check, ctx, true);
        if (before) return skip(before);
        if (stage === "exhaust" && options.exhaust && !ctx.mock) {
          const why = await options.exhaust(ctx);
          if (why) return skip(why);
        }
        const request = ctx.buildRequest(check.operationId, ctx.mock ? mockRequest(ctx, check) : await check.request(ctx));
        const expect429 = check.stage === "exhaust";
        t.fullPath = request.path;
        t.request.uri = request.path;
        t.request.headers = { ...request.headers, [CHECK_HEADER]: checkId(check), ...(expect429 ? { [EXPECT_429_HEADER]: "1" } : {}) };
        t.request.body = request.body ?? "";
        sent.set(t.name, request);
      };
      // As the check: what it provisions or uses up on its way is its own.
      inCheck(checkId(check), prepare)
        .catch((error: unknown) => {
          if (error instanceof LimitNotEnforced) {
            t.skip = true;
            record(t, check, { verdict: "fail", reasons: [error.message], durationMs: 0, decisions: [] });
          } else if (error instanceof NotApplicable) skip(error.message);
          else skip(`could not prepare the request: ${(error as Error).message}`);
        })
        .finally(done);
    });

    hooks.beforeEachValidation((t, done) => {
      const check = checkOf(t);
      const request = sent.get(t.name);
      const renewed = stage === "exhaust" && !ctx.mock && options.exhaust && check && request && t.real && t.real.statusCode !== 429;
      if (!renewed) {
        prepareValidation(t);
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
          prepareValidation(t);
          done();
        });
    });

    /** Makes Dredd's expectations the contract's under the profile, for this response. */
    const prepareValidation = (t: DreddTransaction): void => {
      const check = checkOf(t);
      if (!check || !t.real) return;
      const response = observed(t.real);
      const alternative = notApplicableAfterResponse(ctx, check, response);
      if (alternative) decided.set(t.name, alternative);
      const expectation = ctx.expectation(check.operationId, check.status);
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
    };

    hooks.afterEach((t, done) => {
      const check = checkOf(t);
      if (!check || t.skip || recorded.has(t.name)) {
        done();
        return;
      }
      if (!t.real) {
        record(t, check, { verdict: "fail", reasons: [`no response: ${t.test?.message ?? "the request failed"}`], durationMs: elapsed(t), decisions: [] });
        done();
        return;
      }
      const response = observed(t.real);
      const expectation = ctx.expectation(check.operationId, check.status);
      const notApplicable = decided.get(t.name);
      if (notApplicable) {
        record(t, check, { verdict: "not-applicable", reasons: [notApplicable], durationMs: elapsed(t), decisions: expectation.decisions });
        done();
        return;
      }
      // Our own reading of the same response (ajv 8 with every format, header values) and what
      // Dredd cannot express (the stated error code); Dredd's verdict counts too.
      const reasons = [...ctx.problems(check.operationId, check.status, response), ...extraProblems(ctx, check, response)];
      const dreddFailed = t.test?.valid === false;
      if (dreddFailed && reasons.length === 0) {
        reasons.push(...(t.test?.message ?? "").split("\n").filter(Boolean).map((line) => `dredd: ${line}`));
      }
      if (!dreddFailed && reasons.length > 0) t.fail = reasons.join("; ");
      if (reasons.length === 0) check.after?.(ctx, response);
      record(t, check, { verdict: reasons.length === 0 ? "pass" : "fail", reasons, durationMs: elapsed(t), decisions: expectation.decisions });
      done();
    });
  };

  const registry: Registry = ((globalThis as Record<symbol, unknown>)[REGISTRY] as Registry | undefined) ?? new Map();
  (globalThis as Record<symbol, unknown>)[REGISTRY] = registry;
  const suiteId = `${ctx.family}-${stage}-${++suiteCounter}`;
  registry.set(suiteId, install);

  type DreddClass = new (config: Record<string, unknown>) => DreddInstance;
  const dreddModule = loadDredd() as DreddClass | { default: DreddClass };
  const Dredd = "default" in dreddModule ? dreddModule.default : dreddModule;
  const outputLogger = require("dredd/build/reporters/reporterOutputLogger").default as { transports: { console: { silent: boolean } } };
  outputLogger.transports.console.silent = true; // the runner prints its own report
  try {
    await new Promise<void>((resolve, reject) => {
      const dredd: DreddInstance = new Dredd({
        endpoint: proxy.url,
        path: [ctx.contract.dreddDocument],
        hookfiles: [HOOK_FILE],
        custom: { conformanceSuite: suiteId },
        loglevel: "error",
        color: false,
        reporter: [],
        emitter: new EventEmitter(),
      });
      reuseParsedDocument(dredd, ctx.contract.dreddDocument);
      dredd.run((error) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()));
    });
  } finally {
    registry.delete(suiteId);
    await proxy.close();
  }
}
