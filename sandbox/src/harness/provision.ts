/**
 * A target for the project's sandbox (sandbox/): its seeded keys and the primary account's
 * webhook secret, and fixtures made through its controls (`/_sandbox/...`), which the
 * published interface cannot make: boletos in every state (REGISTERED, CONFIRMED, ERROR,
 * PROCESSING), and a customer tied to an open charge (a customer with a PENDING transaction). The primary account's second key, when
 * the ring has one, is named too: the idempotency key space checks need two keys of one account.
 */
import { request as httpRequest } from "node:http";
import type { RateLimitPlan } from "../plans.ts";

/** A target file's content (the conformance target format), as plain JSON. */
export type TargetDocument = {
  familyA: { baseUrl: string; environment: string; keys: Record<string, string>; webhookSecret: string; cors?: { origins: string[] }; privateWebhookTargets?: "allowed"; requestTimeoutMs?: number };
  familyB: { baseUrl: string; keys: Record<string, string>; fixtures: Record<string, unknown>; plan?: Record<string, number>; cors?: { origins: string[] }; requestTimeoutMs?: number };
};

export interface SandboxKeysLike {
  familyA: { primary: string; noMerchantRead: string; secondAccount: string; rateLimits?: string; primarySecondKey?: string };
  familyB: { primary: string; secondAccount: string; rateLimits?: string; primarySecondKey?: string };
}

/**
 * One control or API call, its JSON answer. node:http, not fetch: a run of the self-test starts
 * some 600 sandboxes, each provisioned with nine calls, and fetch's streams cost several times
 * the exchange itself.
 */
function call(url: string, key: string, body?: unknown): Promise<Record<string, unknown>> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: payload === undefined ? "GET" : "POST", headers: { "x-api-key": key, ...(payload === undefined ? {} : { "content-type": "application/json" }) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const status = response.statusCode ?? 0;
        if (status < 200 || status > 299) reject(new Error(`sandbox fixture ${url}: ${status} ${text.slice(0, 200)}`));
        else {
          try {
            resolve(JSON.parse(text) as Record<string, unknown>);
          } catch (error) {
            reject(new Error(`sandbox fixture ${url}: not JSON: ${text.slice(0, 200)}`, { cause: error }));
          }
        }
      });
    });
    request.on("error", reject);
    request.end(payload);
  });
}

function dataId(body: Record<string, unknown>, field: string): string {
  const data = body.data as Record<string, unknown> | undefined;
  const id = data?.[field];
  if (typeof id !== "string") throw new Error(`sandbox fixture: no data.${field} in ${JSON.stringify(body).slice(0, 200)}`);
  return id;
}

export interface SandboxTargetOptions {
  /** REGISTERED boletos to create (each successful cancel, check or scenario, consumes one; default 3). */
  registeredBoletos?: number;
  /** Give the 429 checks the sandbox's dedicated rate-limit account. */
  useRateLimitAccount?: boolean;
  /** The plan the sandbox runs: the target declares it, so the suites hold announced limits to it. */
  declarePlan?: RateLimitPlan;
  /** The origins the sandbox grants cross-origin access (D44): the target declares them, so the suites hold both families to D44 under full. */
  declareCorsOrigins?: readonly string[];
  /**
   * The sandbox calls loopback and private webhook targets (`--allow-private-webhooks`): the
   * target says so, so the suites do not expect such targets refused (decision D48).
   */
  declarePrivateWebhookTargets?: boolean;
  /** The sandbox's request timeout (ms), when short: the target declares it, so the suites judge its 408 (decision D39). */
  declareRequestTimeoutMs?: number;
}

/** A sandbox plan in the target's terms (figures by resource of the Limits table, and a window other than the minute). */
function targetPlan(plan: RateLimitPlan): Record<string, number> {
  const figures = { general: plan.general, transactions: plan.transactionCreations, pix: plan.pixCreations, queries: plan.queries };
  return plan.windowSeconds === 60 ? figures : { ...figures, windowSeconds: plan.windowSeconds };
}

/** Creates the fixtures on a running sandbox and returns the target file content that names them. */
export async function provisionSandboxTarget(url: string, keys: SandboxKeysLike, options: SandboxTargetOptions = {}): Promise<TargetDocument> {
  const base = url.replace(/\/+$/, "");
  const b = keys.familyB.primary;
  const registered: string[] = [];
  for (let i = 0; i < (options.registeredBoletos ?? 3); i += 1) {
    registered.push(dataId(await call(`${base}/_sandbox/boletos`, b, { status: "REGISTERED", withPix: i === 0 }), "transactionId"));
  }
  const confirmed = dataId(await call(`${base}/_sandbox/boletos`, b, { status: "CONFIRMED" }), "transactionId");
  const errored = dataId(await call(`${base}/_sandbox/boletos`, b, { status: "ERROR" }), "transactionId");
  const processing = dataId(await call(`${base}/_sandbox/boletos`, b, { status: "PROCESSING" }), "transactionId");
  const customer = await call(`${base}/api/v1/sdk/customers`, b, {
    name: "Cliente com cobrança em aberto",
    email: "cobranca.aberta@example.com",
    documentNumber: "52998224725",
    phoneNumber: "+5511912345678",
    address: { postalCode: "01310100", street: "Avenida Paulista", number: "1000", neighborhood: "Bela Vista", city: "São Paulo", state: "SP" },
  });
  const customerId = dataId(customer, "id");
  await call(`${base}/transactions`, b, { amount: 99.9, customerId });
  // The secret signing the primary account's webhooks now (the seeded one, unless rotated).
  const [webhookSecret] = (await call(`${base}/_sandbox/webhooks/secret`, keys.familyA.primary)).secrets as string[];
  const rateLimits = options.useRateLimitAccount ?? true;
  const cors = options.declareCorsOrigins && options.declareCorsOrigins.length > 0 ? { cors: { origins: [...options.declareCorsOrigins] } } : {};
  const timeout = options.declareRequestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.declareRequestTimeoutMs };
  return {
      familyA: {
        baseUrl: base,
        environment: "sandbox",
        keys: {
          primary: keys.familyA.primary,
          secondAccount: keys.familyA.secondAccount,
          noMerchantRead: keys.familyA.noMerchantRead,
          ...(rateLimits && keys.familyA.rateLimits ? { rateLimits: keys.familyA.rateLimits } : {}),
          ...(keys.familyA.primarySecondKey ? { primarySecondKey: keys.familyA.primarySecondKey } : {}),
        },
        webhookSecret,
        ...cors,
        ...(options.declarePrivateWebhookTargets ? { privateWebhookTargets: "allowed" as const } : {}),
        ...timeout,
      },
      familyB: {
        baseUrl: base,
        keys: {
          primary: keys.familyB.primary,
          secondAccount: keys.familyB.secondAccount,
          ...(rateLimits && keys.familyB.rateLimits ? { rateLimits: keys.familyB.rateLimits } : {}),
          ...(keys.familyB.primarySecondKey ? { primarySecondKey: keys.familyB.primarySecondKey } : {}),
        },
        fixtures: {
          registeredBoletoIds: registered,
          confirmedBoletoId: confirmed,
          errorBoletoId: errored,
          processingBoletoId: processing,
          customerWithOpenChargeId: customerId,
          malformedCustomerId: "not-a-uuid",
          unknownCustomerId: "00000000-0000-4000-8000-000000000000",
        },
        ...(options.declarePlan ? { plan: targetPlan(options.declarePlan) } : {}),
        ...cors,
        ...timeout,
      },
  };
}
