/**
 * Broken servers for the rules the catalogue once marked not observable (issue 16, item 12):
 * key format and prefix, the optional User-Agent, the limits the rate-limit headers announce,
 * and the live key prefix. Each breaks one rule in front of the correct sandbox and names the
 * scenario that must catch it.
 */
import type { Exchange, Mutation, Reply } from "./mutants.ts";

const isFamilyB = (request: Exchange) => !request.path.startsWith("/v1") && !request.path.startsWith("/_sandbox");
const withKey = (request: Exchange, key: string): Exchange => ({ ...request, headers: { ...request.headers, "x-api-key": key } });

/** A reply announcing one request fewer than the plan's limit, on the requests that match. */
function announcesOneFewer(matches: (request: Exchange) => boolean) {
  return (request: Exchange, reply: Reply): Reply => {
    const limit = reply.headers["x-ratelimit-limit"];
    if (!matches(request) || limit === undefined || !/^\d+$/.test(limit)) return reply;
    return { ...reply, headers: { ...reply.headers, "x-ratelimit-limit": String(Number(limit) - 1) } };
  };
}

/** Envelope 1 refusal, as a server that insists on a known client would send it. */
const REFUSED: Reply = {
  status: 400,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ success: false, error: { code: "VALIDATION_ERROR", message: "Unknown client.", details: "User-Agent" } }),
};

/** A prefix the sandbox never issues: the target's second account key is given under it. */
const OTHER_PREFIX = "alt";

export const WIRE_RULE_MUTATIONS: Mutation[] = [
  {
    name: "user-agent-required",
    statements: ["B-AUTH-HEADER-user-agent"],
    caughtBy: "family-b/auth/user-agent-optional",
    breaks: "User-Agent is optional: a request with another client's User-Agent, or none, is answered alike",
    family: "family-b",
    response: (request, reply) => (isFamilyB(request) && !request.headers["user-agent"]?.startsWith("payment-collection-conformance") ? REFUSED : reply),
  },
  {
    name: "live-key-accepted-by-test-server",
    statements: ["B-AUTH-AUTH-key-format"],
    caughtBy: "family-b/auth/key-format",
    breaks: "the environment of a key binds it to its server: a test server refuses live keys",
    family: "family-b",
    // The server ignores the environment segment: <prefix>_live_<random> reads as the test key.
    request: (request) => {
      const key = request.headers["x-api-key"];
      return isFamilyB(request) && key?.includes("_live_") ? withKey(request, key.replace("_live_", "_test_")) : request;
    },
  },
  {
    name: "keys-of-two-prefixes",
    statements: ["B-AUTH-AUTH-fixed-prefix"],
    caughtBy: "family-b/auth/fixed-prefix",
    breaks: "the same fixed prefix is used for all keys",
    family: "family-b",
    // The second account's key is issued (and accepted) under another prefix.
    adjustTarget: (target) => {
      const keys = target.familyB!.keys;
      keys.secondAccount = keys.secondAccount!.replace(/^[^_]+_/, `${OTHER_PREFIX}_`);
    },
    request: (request, keys) => {
      const key = request.headers["x-api-key"];
      return key?.startsWith(`${OTHER_PREFIX}_`) ? withKey(request, keys.familyB.secondAccount) : request;
    },
  },
  {
    name: "general-limit-announced-one-fewer",
    statements: ["B-LIMITS-LIMIT-general"],
    caughtBy: "family-b/rate-limits/general-announced",
    breaks: "the general limit is the published figure (or the plan's): 100 requests per minute",
    family: "family-b",
    response: announcesOneFewer((request) => request.method === "GET" && request.path === "/sdk/status/health"),
  },
  {
    name: "pix-limit-announced-one-fewer",
    statements: ["B-LIMITS-LIMIT-pix"],
    caughtBy: "family-b/rate-limits/pix-announced",
    breaks: "the PIX limit is the published figure (or the plan's): 30 creations per minute",
    family: "family-b",
    response: announcesOneFewer((request) => request.method === "POST" && (request.path === "/pix" || request.path === "/pix/payment")),
  },
  {
    name: "transactions-limit-announced-one-fewer",
    statements: ["B-LIMITS-LIMIT-transactions"],
    caughtBy: "family-b/rate-limits/transactions-announced",
    breaks: "the transactions limit is the published figure (or the plan's): 50 creations per minute",
    family: "family-b",
    response: announcesOneFewer((request) => request.method === "POST" && request.path === "/transactions"),
  },
  {
    name: "queries-limit-announced-one-fewer",
    statements: ["B-LIMITS-LIMIT-queries"],
    caughtBy: "family-b/rate-limits/queries-announced",
    breaks: "the queries limit is the published figure (or the plan's): 200 requests per minute",
    family: "family-b",
    response: announcesOneFewer((request) => request.method === "GET" && (request.path.startsWith("/pix/") || request.path.startsWith("/transactions"))),
  },
  {
    name: "live-server-accepts-test-keys",
    statements: ["A-AUTH-AUTH-live-prefix"],
    caughtBy: "family-a/auth/live-prefix",
    breaks: "live keys start with sk_live_: a live server accepts no other key",
    family: "family-a",
    // The sandbox, presented as a live server, accepts its sk_test_ keys.
    adjustTarget: (target) => {
      target.familyA!.environment = "live";
    },
  },
];
