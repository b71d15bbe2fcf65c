/**
 * The sandbox's life as a process, apart from what it answers: where its data lives, its name in
 * the delivery log, the contract it loads (and that it implements it), the rate-limit plan the
 * operator chose (refused when it is none), the port it listens on, the access log it writes
 * and how it closes. None of it decides an answer or an event (server.ts does, with what this module
 * gives it), so the mutation run leaves it out like the command line (mutation/README.md); the
 * sandbox's tests prove it (sandbox/test/command-line.test.ts starts it as its users do,
 * hostile-client.test.ts reads its access log).
 */
import { randomBytes } from "node:crypto";
import type { createServer, IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { loadContractDocuments } from "@payment-collection/contract/model/index.ts";
import { RATE_LIMIT_PLANS, resolvePlan, type PlanName, type RateLimitPlan } from "./plans.ts";

type HttpServer = ReturnType<typeof createServer>;

/** The access log: `true` writes one line per request to stdout, a function receives each line. */
export type AccessLog = boolean | ((line: string) => void);

const DEFAULT_DATA_DIR = ".sandbox-data";

/** Where the SQLite database lives (default ./.sandbox-data), as an absolute path. */
export function dataDirOf(dataDir: string | undefined): string {
  return resolve(dataDir ?? DEFAULT_DATA_DIR);
}

/** This instance's name in the delivery log (default: host name, process id and a random suffix). */
export function instanceNameOf(instanceId: string | undefined): string {
  return instanceId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

/**
 * The rate-limit plan the operator chose (the default plan when none): a plan's name, or a
 * custom plan whose figures are positive integers; anything else stops the sandbox from
 * starting, so no client ever meets it.
 */
export function checkedPlan(plan: PlanName | RateLimitPlan = "default"): RateLimitPlan {
  if (typeof plan === "string" && !Object.hasOwn(RATE_LIMIT_PLANS, plan)) {
    throw new Error(`unknown rate-limit plan "${plan}" (known: ${Object.keys(RATE_LIMIT_PLANS).join(", ")})`);
  }
  for (const [name, value] of Object.entries(typeof plan === "object" ? plan : {})) {
    if (!Number.isInteger(value) || value < 1) throw new Error(`rate-limit plan: ${name} must be a positive integer`);
  }
  return resolvePlan(plan);
}

/** The generated contract's documents: without them there is nothing to serve, so the error says how to make them. */
export function loadDocuments(generatedDir: string | undefined): ReturnType<typeof loadContractDocuments> {
  try {
    return loadContractDocuments({ generatedDir });
  } catch (error) {
    throw new Error(`the sandbox needs the generated contract (run \`npm run build\`): ${(error as Error).message}`);
  }
}

/**
 * The handlers and the contract name the same operations: a sandbox started on a contract of
 * another generation (`generatedDir`) stops at start, rather than failing a request.
 */
export function checkImplemented(operations: ReadonlyArray<{ operationId: string; method: string; pathTemplate: string }>, handlers: readonly string[]): void {
  for (const op of operations) if (!handlers.includes(op.operationId)) throw new Error(`the sandbox implements no handler for ${op.operationId} (${op.method} ${op.pathTemplate})`);
  const ids = new Set(operations.map((op) => op.operationId));
  for (const operationId of handlers) if (!ids.has(operationId)) throw new Error(`the contract has no operation ${operationId}`);
}

/** Where access log lines go: stdout for `true`, the caller's function, or nowhere. */
export function accessLogWriter(accessLog: AccessLog | undefined): ((line: string) => void) | undefined {
  return accessLog === true ? (line: string) => process.stdout.write(`${line}\n`) : accessLog || undefined;
}

/**
 * One access log line once the answer is written: method, path without query, status,
 * milliseconds, account (`sandboxAccount`, which the pipeline notes only when there is a log).
 */
export function logAccess(req: IncomingMessage & { sandboxAccount?: string }, res: ServerResponse, log: ((line: string) => void) | undefined): void {
  if (!log) return;
  const started = performance.now();
  res.once("finish", () => {
    const path = (req.url ?? "/").split("?")[0];
    log(`${req.method} ${path} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms ${req.sandboxAccount ?? "-"}`);
  });
}

/** Listens (port 0: a free one) and gives the port; when it cannot, `release` frees what was opened before the error is thrown. */
export async function listen(server: HttpServer, port: number | undefined, host: string, release: () => Promise<void>): Promise<number> {
  try {
    return await new Promise((resolvePort, reject) => {
      server.once("error", reject);
      server.listen(port ?? 0, host, () => {
        server.off("error", reject);
        resolvePort((server.address() as AddressInfo).port);
      });
    });
  } catch (error) {
    await release();
    throw error;
  }
}

/** The base URL of a host and port, without a trailing slash (an IPv6 address in brackets). */
export function urlOf(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Closes each in turn (delivery before the store it reads): what `listen` releases when it cannot, and `closeOnce` after the server. */
export function closeInTurn(...closables: ReadonlyArray<{ close(): Promise<void> }>): () => Promise<void> {
  return async () => {
    for (const closable of closables) await closable.close();
  };
}

/** Closes once, however often asked: the server and its open connections first, so that nothing new reaches `after` (delivery, the store). */
export function closeOnce(server: HttpServer, after: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      await after();
    })();
    return closing;
  };
}
