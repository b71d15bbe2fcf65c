/**
 * The rate limits an operation counts against. The generated documents carry them as the
 * operation extension `x-rate-limits` ([{bucket, limit, window}]); until they do, the
 * document's Limits table (per minute, family B) is restated here, and only here:
 * general 100 requests (all requests), transactions 50 (POST /transactions), PIX 30
 * (POST /pix and POST /pix/payment), queries 200 (GET of transactions and PIX).
 * A plan the target declares (`familyB.plan`) replaces the figures. Whether a profile holds a
 * server to an operation's limits at all is asked of the one answer (document-word.ts).
 */
import type { ContractOperation } from "@payment-collection/contract/model/index.ts";
import type { DeclaredRateLimitPlan, RateLimitPlanFigures } from "../core/target.ts";
import { asserted, type Profile } from "../core/profiles/document-word.ts";

export type Bucket = keyof RateLimitPlanFigures;
export interface OperationLimit {
  bucket: Bucket;
  limit: number;
  windowSeconds: number;
}

export const PUBLISHED_FIGURES: RateLimitPlanFigures = { general: 100, transactions: 50, pix: 30, queries: 200 };

/** The Limits table's "Applies to" column, by method and published path. */
function publishedBuckets(op: ContractOperation): Bucket[] {
  const buckets: Bucket[] = ["general"];
  if (op.method === "POST" && op.path === "/transactions") buckets.push("transactions");
  if (op.method === "POST" && (op.path === "/pix" || op.path === "/pix/payment")) buckets.push("pix");
  if (op.method === "GET" && (op.path.startsWith("/transactions") || op.path.startsWith("/pix"))) buckets.push("queries");
  return buckets;
}

/**
 * The limits of an operation a profile holds a server to; empty when the contract publishes
 * none for its family, or when they are a decision the profile does not assert (family A's
 * `x-rate-limits` are decision D09: under seed a server need not limit family A at all).
 */
export function limitsOf(op: ContractOperation, profile: Profile, plan?: DeclaredRateLimitPlan): OperationLimit[] {
  if (!asserted(profile, { kind: "behaviour", node: op, about: "x-rate-limits" })) return [];
  if (op.rateLimits.length > 0) {
    return op.rateLimits.map(({ bucket, limit }) => ({ bucket, limit: plan?.[bucket] ?? limit, windowSeconds: plan?.windowSeconds ?? 60 }));
  }
  if (op.family !== "family-b") return [];
  return publishedBuckets(op).map((bucket) => ({ bucket, limit: (plan ?? PUBLISHED_FIGURES)[bucket], windowSeconds: plan?.windowSeconds ?? 60 }));
}
