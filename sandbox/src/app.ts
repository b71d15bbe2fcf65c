/**
 * What the request pipeline hands to the resource modules: the running sandbox's parts
 * (`SandboxApp`) and, per request, the authenticated caller, the account's clock and the
 * validated input (`RequestContext`).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Contract, OperationSpec, ValidationProblem } from "./contract/operations.ts";
import type { Surface } from "./envelopes.ts";
import type { Reply } from "./http/reply.ts";
import type { KeyRing, SandboxAccount, SandboxApiKey } from "./keys.ts";
import type { RateLimitPlan } from "./plans.ts";
import type { SandboxStore } from "./store/types.ts";
import type { WebhookSender } from "./webhooks/index.ts";

export interface SandboxApp {
  contract: Contract;
  keyRing: KeyRing;
  /** Everything shared by the instances over one database, rate-limit counters and clocks included. */
  store: SandboxStore;
  plan: RateLimitPlan;
  /** This instance's name (the delivery log names the instance that made each attempt). */
  instance: string;
  /** The base clock; each account's clock runs ahead of it by the account's offset. */
  baseNow: () => Date;
  webhooks: WebhookSender;
}

export interface RequestContext {
  app: SandboxApp;
  op: OperationSpec;
  surface: Surface;
  key: SandboxApiKey;
  account: SandboxAccount;
  /** Now on the account's clock, fixed for the whole request. */
  now: Date;
  params: Record<string, string>;
  /** Declared query parameters, typed and with their schema defaults applied. */
  query: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  /** The request body, validated against the operation's schema (undefined when it has none). */
  body: unknown;
}

export interface OperationHandler {
  /** Runs after authentication and before any validation (e.g. the Idempotency-Key rule). */
  precheck?(ctx: Omit<RequestContext, "body" | "query">): Reply | undefined;
  /** Renders a request that failed validation; default: the surface's 400 VALIDATION_ERROR. */
  invalid?(ctx: Omit<RequestContext, "body" | "query">, problems: ValidationProblem[]): Reply;
  handle(ctx: RequestContext): Promise<Reply> | Reply;
}

export type HandlerTable = Record<string, OperationHandler>;
