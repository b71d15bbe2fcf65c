/**
 * The sandbox: a stateful implementation of family A, family B and the sandbox controls on one
 * port (node:http + find-my-way). Routes, request validation and response shapes come from
 * the generated OpenAPI documents; state lives in the embedded SQLite store.
 *
 *   const sandbox = await startSandbox({ dataDir: "/tmp/sbx", plan: "generous" });
 *   await fetch(`${sandbox.url}/v1/merchant`, { headers: { "x-api-key": sandbox.keys.familyA.primary } });
 *   await sandbox.close();
 *
 * Every request goes through the same pipeline: route -> authenticate (the key decides the
 * account and its clock) -> count against the rate limits -> 404/405/401/403 -> the
 * operation's own checks -> parameters and body validated against the contract -> the
 * resource handler. Bad input of any kind ends in the surface's documented error body, never
 * in a 5xx.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import FindMyWay from "find-my-way";
import { pathDecodes, type ServiceId } from "@payment-collection/contract/model/index.ts";
import type { HandlerTable, OperationHandler, RequestContext, SandboxApp } from "./app.ts";
import { authenticate } from "./auth.ts";
import { describeProblems, loadContract, type OperationSpec, type ValidationProblem } from "./contract/operations.ts";
import { commonError, problem, sdkError, surfaceOfPath, type Surface } from "./envelopes.ts";
import { applyCors, corsPolicy } from "./http/cors.ts";
import { isJsonContentType, MAX_BODY_BYTES, parseJsonBody, readBody } from "./http/body.ts";
import { answerFailure } from "./http/failure.ts";
import { accessLogWriter, checkedPlan, checkImplemented, closeInTurn, closeOnce, dataDirOf, instanceNameOf, listen, loadDocuments, logAccess, logClientError, urlOf, type AccessLog } from "./lifecycle.ts";
import { send, type Reply } from "./http/reply.ts";
import { createKeyRing, type SandboxApiKey, type SandboxKeys } from "./keys.ts";
import type { PlanName, RateLimitPlan } from "./plans.ts";
import { rateBuckets, rateDecision, rateSubject } from "./rate-limit.ts";
import { boletoHandlers } from "./resources/boletos.ts";
import { chargeHandlers } from "./resources/charges.ts";
import { controlHandlers } from "./resources/controls.ts";
import { customerHandlers } from "./resources/customers.ts";
import { healthHandlers } from "./resources/health.ts";
import { merchantHandlers } from "./resources/merchant.ts";
import { pixHandlers } from "./resources/pix.ts";
import { transactionHandlers } from "./resources/transactions.ts";
import { openStore } from "./store/open.ts";
import type { Checkpoints, Durability } from "./store/sqlite.ts";
import type { StoreInfo } from "./store/types.ts";
import { validateBody, validateParameters } from "./validation.ts";
import { createWebhookSender, type WebhookOptions, type WebhookSender } from "./webhooks/index.ts";

export { SANDBOX_KEYS, type SandboxKeys } from "./keys.ts";
export { RATE_LIMIT_PLANS, type RateLimitPlan } from "./plans.ts";

export interface StartSandboxOptions {
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Port to bind (default 0: a free port). */
  port?: number;
  /** Where the SQLite database lives (default ./.sandbox-data; unused with a PostgreSQL store). */
  dataDir?: string;
  /**
   * The store: `sqlite` (default, the file in `dataDir`) or a PostgreSQL connection string
   * (`postgres://user:pass@host:5432/db`), shared by every instance started with it.
   */
  store?: string;
  /** This instance's name in the delivery log (default: host name, process id and a random suffix). */
  instanceId?: string;
  /** Rate-limit plan: `default` (the published limits), `generous`, or custom numbers. */
  plan?: PlanName | RateLimitPlan;
  /** The base clock, which each account's clock control shifts (default: the real clock). */
  now?: () => Date;
  /** Let webhooks reach loopback and private addresses (tests, local development). */
  allowPrivateWebhookTargets?: boolean;
  /** `process` (default): survives kill -9; `power`: also fsyncs every commit. */
  durability?: Durability;
  /** Where the SQLite store runs its WAL checkpoints: `worker` (default) or `inline` (short-lived sandboxes). */
  checkpoints?: Checkpoints;
  /** Seed of the accounts' keys (default: the documented keys, SANDBOX_KEYS). */
  keySeed?: string;
  /** Webhook retry delays, jitter, attempt timeout, rotation overlap, paused delivery. */
  webhooks?: Omit<WebhookOptions, "allowPrivateTargets" | "now" | "instance">;
  /** Folder of the generated contract (default: the repository's generated/). */
  generatedDir?: string;
  /**
   * One line per request (method, path without query, status, milliseconds, account): `true`
   * writes to stdout, a function receives each line. Off by default.
   */
  accessLog?: AccessLog;
  /**
   * Origins granted cross-origin access (decision D44), as browsers send them
   * (`http://localhost:8080`); none by default.
   */
  corsOrigins?: readonly string[];
  /** HTTP timeouts (ms): headers (default 60 s), whole request (default 60 s), how often they are checked (default 30 s). */
  timeouts?: { headersMs?: number; requestMs?: number; checkIntervalMs?: number };
}

export interface RunningSandbox {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:43121`. */
  url: string;
  port: number;
  dataDir: string;
  keys: SandboxKeys;
  /** The store: kind, whether it is shared, and where (no password). */
  store: StoreInfo;
  /** This instance's name in the delivery log. */
  instance: string;
  /**
   * Webhook delivery: the attempts made (for inspection), the secrets signing an account's
   * events and their rotation (by account id, e.g. `acc_1`).
   */
  webhooks: Pick<WebhookSender, "attempts" | "secrets" | "rotateSecret">;
  /** Stops accepting requests, ends open connections and closes the store. */
  close(): Promise<void>;
}

const HANDLERS: HandlerTable = {
  ...chargeHandlers,
  ...merchantHandlers,
  ...healthHandlers,
  ...customerHandlers,
  ...boletoHandlers,
  ...pixHandlers,
  ...transactionHandlers,
  ...controlHandlers,
};

interface Route {
  op: OperationSpec;
  handler: OperationHandler;
}

function surfaceOfService(service: ServiceId): Surface {
  return service === "family-a" ? "A" : service === "family-b" ? "B" : "controls";
}

/** The request, with what the access log reports besides the response. */
type SandboxRequest = IncomingMessage & { sandboxAccount?: string };

function buildRouter(app: SandboxApp) {
  checkImplemented(app.contract.operations, Object.keys(HANDLERS));
  const router = FindMyWay({ ignoreTrailingSlash: false, ignoreDuplicateSlashes: false, caseSensitive: true, maxParamLength: 4096 });
  for (const op of app.contract.operations) router.on(op.method as "GET", op.routerPath, () => undefined, { op, handler: HANDLERS[op.operationId]! } satisfies Route);
  // Every path reaching the router decodes (D50 refuses the others first), so no lookup throws.
  const find = (method: string, path: string): { route: Route; params: Record<string, string> } | null => {
    const found = router.find(method as "GET", path);
    return found ? { route: found.store as Route, params: found.params as Record<string, string> } : null;
  };
  /** The methods of the contract's operations: those a 405's `Allow` may name. */
  const methods = [...new Set(app.contract.operations.map((op) => op.method))];
  return { find, methods };
}

/** The path and the query of a request target (an absolute-form target is read for its path). */
function splitTarget(target: string): { path: string; search: URLSearchParams } {
  const queryAt = target.indexOf("?");
  let path = queryAt === -1 ? target : target.slice(0, queryAt);
  // Stryker disable all: an absolute-form target is what a client sends to a proxy (RFC 9112 §3.2.2), not to an API; the router (find-my-way) routes on its path by itself, and this reading only names that path in the answer to an unrouted request
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      path = "/";
    }
  }
  // Stryker restore all
  return { path, search: new URLSearchParams(queryAt === -1 ? "" : target.slice(queryAt + 1)) };
}

/**
 * Every request counts, controls included: against the limits of the key's account and family
 * when the key is valid (even where it is refused: the other family's key, a key next to one in
 * the query; D09: each family has its own windows), else against the client address. Windows
 * run on the base clock (real time), never on the account's clock, so advancing an account's
 * clock renews no window. The store answers the account's clock offset and the rate-limit charge
 * in one call (synchronously on SQLite). Gives the account's now, the rate-limit headers, and the
 * 429 when the request is over a limit.
 */
async function admit(app: SandboxApp, req: SandboxRequest, auth: ReturnType<typeof authenticate>, op: OperationSpec | undefined, surface: Surface): Promise<{ now: Date; rateHeaders: Record<string, string>; refusal?: Reply }> {
  const key = auth.key;
  // Stryker disable next-line StringLiteral,LogicalOperator: which address an anonymous request is counted under shows only to clients at two addresses, and the suites run from one
  const subject = key ? rateSubject(key) : `anonymous:${req.socket.remoteAddress ?? "unknown"}`;
  const baseMs = app.baseNow().getTime();
  const { windowStartMs, buckets } = rateBuckets(app.plan, subject, auth.ok ? op?.operationId : undefined, baseMs);
  const admitting = app.store.admit(auth.ok ? auth.account.id : undefined, windowStartMs, buckets);
  const admission = admitting instanceof Promise ? await admitting : admitting;
  const decision = rateDecision(app.plan, windowStartMs, buckets, admission, baseMs);
  const now = new Date(baseMs + admission.offsetMs);
  if (decision.admitted) return { now, rateHeaders: decision.headers };
  const detail = `Limit of ${decision.headers["X-RateLimit-Limit"]} requests per window reached; retry after ${decision.headers["Retry-After"]} seconds.`;
  return { now, rateHeaders: decision.headers, refusal: commonError(surface, "RATE_LIMITED", detail) };
}

/** The answer to a path no operation has: 405 with `Allow` when another method has it, else 404. */
function unrouted(router: ReturnType<typeof buildRouter>, surface: Surface, method: string, path: string): Reply {
  // Stryker disable next-line ConditionalExpression: equivalent, the request's own method finds no route here (that is why it is unrouted)
  const allowed = router.methods.filter((m) => m !== method && router.find(m, path) !== null);
  if (allowed.length === 0) return commonError(surface, "NOT_FOUND", `No operation ${method} ${path}.`);
  const reply = commonError(surface, "METHOD_NOT_ALLOWED", `${method} is not allowed on ${path}; allowed: ${allowed.join(", ")}.`);
  return { ...reply, headers: { Allow: allowed.join(", ") } };
}

/** The 403 of a key without a scope the operation requires (`x-required-scopes`), if it lacks one. */
function scopeRefusal(op: OperationSpec, key: SandboxApiKey, surface: Surface): Reply | undefined {
  const missing = op.requiredScopes.filter((scope) => !key.scopes.includes(scope));
  if (missing.length === 0) return undefined;
  return commonError(surface, "INSUFFICIENT_SCOPE", `This operation requires the scope ${missing.join(", ")}.`);
}

/** The request's JSON body and what is wrong with it; `aborted` when the client went away. */
async function readRequestBody(req: SandboxRequest, op: OperationSpec): Promise<{ aborted?: true; body?: unknown; problems: ValidationProblem[] }> {
  const raw = await readBody(req);
  // Stryker disable next-line all: a client that aborted its request reads no answer
  if (raw.kind === "aborted") return { aborted: true, problems: [] };
  if (raw.kind === "too_large") return { problems: [{ location: "body", message: `is larger than ${MAX_BODY_BYTES} bytes` }] };
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: every operation of the contract requires its body: without this step the next ones refuse an empty body with the same 400, and no body is optional
  if (raw.bytes.length === 0) return { problems: op.body!.required ? [{ location: "body", message: "is required (JSON)" }] : [] };
  if (!isJsonContentType(req.headers["content-type"])) return { problems: [{ location: "header Content-Type", message: "must be application/json" }] };
  const parsed = parseJsonBody(raw.bytes);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, a body that is not JSON validates as no body at all, refused with the same 400 (only the details text differs)
  return { body: parsed.value, problems: parsed.problems.length > 0 ? parsed.problems : validateBody(op.body!, parsed.value) };
}

/**
 * One request, top to bottom: route, authenticate, count against the rate limits, refuse what
 * the route, the key or its scopes do not allow, then validate parameters and body and hand the
 * request to the operation's handler.
 */
async function handle(app: SandboxApp, router: ReturnType<typeof buildRouter>, req: SandboxRequest, res: ServerResponse, log: ((line: string) => void) | undefined): Promise<void> {
  // A request a server receives always has its method and target (Node sets both; only a client's own request lacks them).
  const method = req.method!;
  const { path, search } = splitTarget(req.url!);
  // D50: a path that does not decode is no request target, refused before anything reads it.
  if (!pathDecodes(path)) return send(res, refusedTarget(400, "BAD_REQUEST", "The request path is not valid percent-encoding (RFC 3986 §2.1) of UTF-8 text.", path));
  const found = router.find(method, path);
  const op = found?.route.op;
  const surface = op ? surfaceOfService(op.service) : surfaceOfPath(path);
  const auth = authenticate(app.keyRing, surface, req.headers, search);
  // Only for the access log: a property added to every request costs V8 a map change each time.
  // Stryker disable next-line all: the access log is the operator's, never a client's
  if (log) req.sandboxAccount = auth.key?.accountId;

  const { now, rateHeaders, refusal } = await admit(app, req, auth, op, surface);
  if (refusal) return send(res, refusal, rateHeaders);
  if (!found) return send(res, unrouted(router, surface, method, path), rateHeaders);
  if (!auth.ok) return send(res, commonError(surface, "UNAUTHORIZED", auth.detail), rateHeaders);
  const { route, params } = found;
  const missingScope = scopeRefusal(route.op, auth.key, surface);
  if (missingScope) return send(res, missingScope, rateHeaders);

  const base: Omit<RequestContext, "body" | "query"> = { app, op: route.op, surface, key: auth.key, account: auth.account, now, params, headers: req.headers };
  const early = route.handler.precheck?.(base);
  if (early) return send(res, early, rateHeaders);

  const { query, problems } = validateParameters(route.op, search, req.headers);
  const read = route.op.body ? await readRequestBody(req, route.op) : { problems: [] };
  // Stryker disable next-line ConditionalExpression: the client that aborted its request reads no answer
  if (read.aborted) return void res.destroy();
  problems.push(...read.problems);
  if (problems.length > 0) {
    return send(res, route.handler.invalid?.(base, problems) ?? commonError(surface, "VALIDATION_ERROR", describeProblems(problems)), rateHeaders);
  }
  send(res, await route.handler.handle({ ...base, query, body: read.body }), rateHeaders);
}

/**
 * A request refused before any operation is found (D39, D50): the body follows the path when
 * there is one (problem details under `/v1`, envelope 1 elsewhere, as for a 404); when the
 * request line could not be read there is no family to follow, and the body is problem details
 * (RFC 9457, the one standard error format, which family A clients already parse) with a code.
 */
function refusedTarget(status: number, code: string, detail: string, path: string | undefined): Reply {
  return path === undefined || surfaceOfPath(path) === "A" ? problem(status, code, detail) : sdkError(status, code, STATUS_CODES[status]!, detail);
}

/** Requests Node refuses before the pipeline sees them (headers too large: 431, too slow: 408, unparseable: 400) get a JSON error body too, not Node's empty one. */
function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex, log?: (line: string) => void): void {
  // A client whose connection is reset or already closed reads no answer.
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code, detail] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "REQUEST_HEADER_FIELDS_TOO_LARGE", "The request headers are larger than the server accepts."]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "REQUEST_TIMEOUT", "The request was not received in time."]
        : [400, "BAD_REQUEST", "The request is not valid HTTP."];
  const line = error.rawPacket ? /^([A-Z]+) (\/\S*) HTTP\/1\.[01]\r?\n/.exec(error.rawPacket.toString("latin1", 0, 8192)) : null;
  const path = line?.[2].split("?")[0];
  const reply = refusedTarget(status, code, detail, path);
  const payload = JSON.stringify(reply.body);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${reply.contentType ?? "application/json"}\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`);
  logClientError(log, line?.[1], path, status);
}

/** The HTTP server in front of the pipeline: its timeouts, the access log, CORS, and the answers to what Node refuses itself. */
function createSandboxServer(
  app: SandboxApp,
  router: ReturnType<typeof buildRouter>,
  cors: ReturnType<typeof corsPolicy>,
  log: ((line: string) => void) | undefined,
  timeouts: NonNullable<StartSandboxOptions["timeouts"]>,
): ReturnType<typeof createServer> {
  const server = createServer(
    {
      keepAliveTimeout: 5_000,
      requestTimeout: timeouts.requestMs ?? 60_000,
      headersTimeout: timeouts.headersMs ?? Math.min(60_000, timeouts.requestMs ?? 60_000),
      connectionsCheckingInterval: timeouts.checkIntervalMs ?? 30_000,
    },
    (req: SandboxRequest, res) => {
      logAccess(req, res, log);
      if (cors && applyCors(cors, req, res)) return;
      handle(app, router, req, res, log).catch((error: unknown) => answerFailure(error, req, res));
    },
  );
  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => answerClientError(error, socket, log));
  return server;
}

/** Starts a sandbox and resolves once it accepts connections. */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? "127.0.0.1";
  const dataDir = dataDirOf(options.dataDir);
  const documents = loadDocuments(options.generatedDir);
  const keyRing = createKeyRing(options.keySeed);
  const instance = instanceNameOf(options.instanceId);
  const store = await openStore({ store: options.store, dataDir, durability: options.durability, checkpoints: options.checkpoints });
  const webhooks = createWebhookSender(store, keyRing, { ...options.webhooks, allowPrivateTargets: options.allowPrivateWebhookTargets, now: options.now, instance });
  const app: SandboxApp = {
    contract: loadContract(documents),
    keyRing,
    store,
    plan: checkedPlan(options.plan),
    instance,
    baseNow: options.now ?? (() => new Date()),
    webhooks,
  };
  const router = buildRouter(app);
  // Stryker disable next-line ArrayDeclaration: equivalent, an origin granted by default that no browser sends (the mutant's) grants nothing
  const cors = corsPolicy(options.corsOrigins ?? [], documents);
  const server = createSandboxServer(app, router, cors, accessLogWriter(options.accessLog), options.timeouts ?? {});
  const release = closeInTurn(webhooks, store);
  const port = await listen(server, options.port, host, release);
  return {
    url: urlOf(host, port),
    port,
    dataDir,
    keys: keyRing.keys,
    store: store.info,
    instance,
    webhooks,
    close: closeOnce(server, release),
  };
}
