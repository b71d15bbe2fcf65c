/**
 * Cross-origin access (decision D44): a server whose target declares the origins it grants
 * (`familyA.cors.origins`, `familyB.cors.origins`) is held under `full`, on every operation of
 * the family, to what D44 decides for browsers. The document says nothing of browsers: under
 * `seed` nothing here applies, nor without the declaration (a server may let no browser in).
 *
 * Per operation, the four requests a browser makes, each judged on its own:
 * - `preflight-granted`: OPTIONS from a granted origin (the declared ones in turn), without a
 *   key, announcing the operation's method and the headers it takes (the API key header, its
 *   header parameters, Content-Type when it has a body), as browsers list them: 204,
 *   `Access-Control-Allow-Origin` that origin, the method among `Access-Control-Allow-Methods`,
 *   every header among `Access-Control-Allow-Headers`, `Access-Control-Max-Age: 600`;
 * - `preflight-not-granted`: the same from an origin not granted (another host, the granted
 *   host on another port or scheme, `null`, in turn): no `Access-Control-*` header, and the
 *   answer of a method the path does not have (405 `METHOD_NOT_ALLOWED`, D39);
 * - `request-granted`: the operation's request (the run's exemplar, its key and idempotency key
 *   kept, so that a creation is replayed, not made again) from a granted origin:
 *   `Access-Control-Allow-Origin` that origin, and every header the operation's responses
 *   document among `Access-Control-Expose-Headers`;
 * - `request-not-granted`: the same from an origin not granted: no `Access-Control-*` header.
 * Every answer carries `Vary: Origin` and none `Access-Control-Allow-Credentials`; the lists
 * name only headers of the contract (either family's: a server may serve both), never `*`.
 * Once per family, on its first GET without parameters: preflights change no rate-limit count
 * the server announces (`preflight-not-counted`), an answer to a request without Origin carries
 * `Vary: Origin` too (`vary-without-origin`), and a request from a granted origin that is no
 * preflight (an OPTIONS without `Access-Control-Request-Method`, the GET with it) is answered as
 * any other request, with the grant (`not-a-preflight`).
 */
import { FAMILY_IDS, loadFamilyContract, type ContractOperation, type FamilyContract } from "@payment-collection/contract/model/index.ts";
import { NotApplicable } from "../core/check-context.ts";
import { TARGET_KEYS } from "../core/target.ts";
import { errorCodeOf, type ObservedResponse } from "../core/validate.ts";
import { pathParameters } from "./id-links.ts";
import { knownIds, plannedRequest, successes, type Seen } from "./traffic.ts";
import { describe, jsonOf, type Credentials, type DerivedEnv, type PlannedRequest } from "./shared.ts";

/** The decision the class holds a server to: its results name it, and only `full` runs them. */
export const DECISION = "D44";

/** How long D44 lets a browser reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = "600";

/** Response headers a browser shows a page without being told (Fetch: CORS-safelisted response headers). */
const SAFELISTED_RESPONSE_HEADERS = new Set(["cache-control", "content-language", "content-length", "content-type", "expires", "last-modified", "pragma"]);

/** Preflights sent between two readings of the rate-limit counts: a counted one shows as more than one. */
const PREFLIGHTS_BETWEEN_READINGS = 3;

export async function run(env: DerivedEnv): Promise<void> {
  const title = "cross-origin access as D44 decides, on every operation";
  const declared = env.ctx.target.cors;
  if (env.ctx.profile !== "full") return env.notApplicable("every-operation", "cors", title, "cross-origin access is decision D44: the document says nothing of browsers (checked under --profile full)");
  if (!declared) return env.notApplicable("every-operation", "cors", title, `the target declares no ${TARGET_KEYS[env.family]}.cors.origins (the origins the server lets browsers call it from)`);
  const granted = declared.origins;
  const others = ungrantedOrigins(granted);
  const named = contractHeaders(env);
  for (const [i, op] of env.ctx.contract.operations.entries()) {
    if (env.stopped) break;
    const origin = granted[i % granted.length]!;
    const refusedOrigin = others[i % others.length]!;
    const otherOrigin = others[(i + 1) % others.length]!;
    await check(env, op, "preflight-granted", () => preflightOf(env, op, origin), "none", (response) => grantedPreflightProblems(op, requestHeaderNames(env, op), origin, response, named.request));
    await check(env, op, "preflight-not-granted", () => preflightOf(env, op, refusedOrigin), "none", (response) => refusedPreflightProblems(refusedOrigin, response));
    await check(env, op, "request-granted", () => withOrigin(exemplarOf(env, op), origin), "primary", (response) => grantedRequestProblems(op, origin, response, named.response));
    await check(env, op, "request-not-granted", () => withOrigin(exemplarOf(env, op), otherOrigin), "primary", (response) => [...noGrantProblems(otherOrigin, response), ...varyProblems(response)]);
  }
  if (!env.stopped) await preflightsNotCounted(env, granted[0]!);
  if (!env.stopped) await notPreflights(env, granted[0]!);
}

/** Origins no declaration grants: another host, the first granted host on another port and scheme, and a page of no origin. */
export function ungrantedOrigins(granted: readonly string[]): string[] {
  const first = new URL(granted[0]!);
  const port = Number(first.port || (first.protocol === "https:" ? 443 : 80));
  const otherPort = new URL(first.origin);
  otherPort.port = String(port === 65_535 ? port - 1 : port + 1);
  const otherScheme = new URL(first.origin);
  otherScheme.protocol = first.protocol === "https:" ? "http:" : "https:";
  return ["https://not-granted.example", otherPort.origin, otherScheme.origin, "null"].filter((origin) => !granted.includes(origin));
}

/** The headers a browser announces for the operation's request, as it lists them: lower case, sorted, once each. */
export function requestHeaderNames(env: DerivedEnv, op: ContractOperation): string[] {
  return headersTaken(env.ctx.contract, op);
}

function headersTaken(contract: FamilyContract, op: ContractOperation): string[] {
  const names = [contract.apiKeyHeader, ...op.parameters.filter((p) => p.in === "header").map((p) => p.name), ...(op.requestBody ? ["Content-Type"] : [])];
  return [...new Set(names.map((name) => name.toLowerCase()))].sort();
}

/**
 * The most a grant may name (D44: the contract's headers, no other): every header a request of
 * either family takes, and every header a response of either documents (both, since one server
 * may serve both families under one origin).
 */
function contractHeaders(env: DerivedEnv): { request: Set<string>; response: Set<string> } {
  const contracts = FAMILY_IDS.map((family) => (family === env.family ? env.ctx.contract : loadFamilyContract(family)));
  const operations = contracts.flatMap((contract) => contract.operations.map((op) => ({ contract, op })));
  return {
    request: new Set(operations.flatMap(({ contract, op }) => headersTaken(contract, op))),
    response: new Set(operations.flatMap(({ op }) => documentedResponseHeaders(op))),
  };
}

/** The response headers the operation documents that a page reads only when they are exposed. */
export function documentedResponseHeaders(op: ContractOperation): string[] {
  const names = op.responses.flatMap((response) => response.headers.map((header) => header.name.toLowerCase()));
  return [...new Set(names)].filter((name) => !SAFELISTED_RESPONSE_HEADERS.has(name)).sort();
}

function preflightOf(env: DerivedEnv, op: ContractOperation, origin: string): PlannedRequest {
  const { url } = exemplarOf(env, op);
  const headers = { origin, "access-control-request-method": op.method, "access-control-request-headers": requestHeaderNames(env, op).join(",") };
  return { operationId: op.operationId, method: "OPTIONS", url, headers };
}

const withOrigin = (request: PlannedRequest, origin: string): PlannedRequest => ({ ...request, headers: { ...request.headers, origin } });

/**
 * The operation's request: the run's last success of it as it was sent (idempotency keys kept:
 * a creation sent again is a replay), else one built from the contract for records the run knows.
 */
function exemplarOf(env: DerivedEnv, op: ContractOperation): PlannedRequest {
  const seen = successes(env, op.operationId).at(-1);
  if (seen) return asSent(env, seen);
  const params = Object.fromEntries(pathParameters(op).map((parameter) => [parameter, knownIds(env, op, parameter)[0] ?? env.ctx.uuid()]));
  return plannedRequest(env, op, params);
}

function asSent(env: DerivedEnv, seen: Seen): PlannedRequest {
  const key = env.ctx.contract.apiKeyHeader.toLowerCase();
  const headers = Object.fromEntries(Object.entries(seen.exchange.requestHeaders).filter(([name]) => name.toLowerCase() !== key && !name.toLowerCase().startsWith("x-conformance")));
  return { operationId: seen.op.operationId, method: seen.exchange.method, url: seen.exchange.url, headers, body: seen.exchange.requestBody };
}

const TITLES: Record<string, (op: ContractOperation) => string> = {
  "preflight-granted": (op) => `a preflight from a granted origin is answered 204 without a key, granting ${op.method} and the headers the operation takes (D44)`,
  "preflight-not-granted": () => "a preflight from an origin not granted gets no grant: the answer of a method the path does not have (D44, D39)",
  "request-granted": () => "an answer to a granted origin grants it and exposes the headers the contract documents (D44)",
  "request-not-granted": () => "an answer to an origin not granted grants nothing (D44)",
  "preflight-not-counted": () => "a preflight from a granted origin counts against no rate limit (D44)",
  "vary-without-origin": () => "an answer to a request without Origin carries Vary: Origin too (D44)",
  "not-a-preflight": () => "an OPTIONS without Access-Control-Request-Method, or another method with it, is no preflight: answered as any request from a granted origin (D44)",
};

/** Sends one request of a variant and judges its answer. */
async function check(env: DerivedEnv, op: ContractOperation, variant: string, request: () => PlannedRequest, credentials: Credentials, problems: (response: ObservedResponse) => string[]): Promise<void> {
  await env.attempt(op.operationId, variant, TITLES[variant]!(op), async () => {
    const sent = request();
    const response = await env.send(sent, credentials);
    const covers = sent.method === "OPTIONS" ? [] : env.covered(op.operationId, response.status);
    env.judge({ operationId: op.operationId, variant, title: TITLES[variant]!(op), covers, reproduction: env.reproduce(sent, credentials) }, problems(response));
  });
}

/** The members of a comma-separated header, trimmed (`Vary`, the `Access-Control-*` lists). */
const listOf = (value: string | undefined): string[] => (value ?? "").split(",").map((item) => item.trim()).filter(Boolean);
const shown = (value: string | undefined) => (value === undefined ? "absent" : JSON.stringify(value));

function varyProblems(response: ObservedResponse): string[] {
  return listOf(response.headers.vary).some((name) => name.toLowerCase() === "origin") ? [] : [`Vary is ${shown(response.headers.vary)}: every answer depends on the Origin header, so it must name Origin (D44)`];
}

/** What a grant to the origin must show on any answer to it. */
function grantProblems(origin: string, response: ObservedResponse): string[] {
  const problems: string[] = [];
  const allowed = response.headers["access-control-allow-origin"];
  if (allowed !== origin) problems.push(`Access-Control-Allow-Origin is ${shown(allowed)}: a granted origin is named itself, never * (D44: ${origin})`);
  const credentials = response.headers["access-control-allow-credentials"];
  if (credentials !== undefined) problems.push(`Access-Control-Allow-Credentials is ${shown(credentials)}: keys travel in headers, D44 grants no credentials mode`);
  return [...problems, ...varyProblems(response)];
}

/** Names of a list that are not among those D44 lets it name (a `*` is none). */
function beyond(list: string | undefined, allowed: Set<string>, what: string): string[] {
  const extra = listOf(list).filter((name) => !allowed.has(name.toLowerCase()) && !SAFELISTED_RESPONSE_HEADERS.has(name.toLowerCase()));
  return extra.length === 0 ? [] : [`${what} names ${extra.join(", ")}, which is no header of the contract (D44: the contract's headers, each named, no other, no *)`];
}

function grantedPreflightProblems(op: ContractOperation, headers: string[], origin: string, response: ObservedResponse, contractRequestHeaders: Set<string>): string[] {
  const problems: string[] = [];
  if (response.status !== 204) problems.push(`answered ${describe(response)}; expected 204: D44 answers a preflight from a granted origin at once, before authentication and rate limiting (it carries no key)`);
  problems.push(...grantProblems(origin, response));
  const methods = listOf(response.headers["access-control-allow-methods"]);
  if (!methods.includes(op.method)) problems.push(`Access-Control-Allow-Methods is ${shown(response.headers["access-control-allow-methods"])}: it does not name ${op.method} (D44: the methods of the contract's operations)`);
  const allowed = new Set(listOf(response.headers["access-control-allow-headers"]).map((name) => name.toLowerCase()));
  const missing = headers.filter((name) => !allowed.has(name));
  if (missing.length > 0) problems.push(`Access-Control-Allow-Headers is ${shown(response.headers["access-control-allow-headers"])}: it does not name ${missing.join(", ")}, which the operation's request carries (D44: Content-Type, the API key headers and every header parameter, named)`);
  problems.push(...beyond(response.headers["access-control-allow-headers"], contractRequestHeaders, "Access-Control-Allow-Headers"));
  const maxAge = response.headers["access-control-max-age"];
  if (maxAge !== PREFLIGHT_MAX_AGE) problems.push(`Access-Control-Max-Age is ${shown(maxAge)}; D44 says ${PREFLIGHT_MAX_AGE}`);
  return problems;
}

function noGrantProblems(origin: string, response: ObservedResponse): string[] {
  const granted = Object.keys(response.headers).filter((name) => name.startsWith("access-control-"));
  return granted.length === 0 ? [] : [`the answer to ${origin}, an origin not granted, carries ${granted.map((name) => `${name}: ${response.headers[name]}`).join("; ")} (D44: no CORS header at all)`];
}

function refusedPreflightProblems(origin: string, response: ObservedResponse): string[] {
  const problems = noGrantProblems(origin, response);
  const code = errorCodeOf(jsonOf(response.body));
  if (response.status !== 405 || code !== "METHOD_NOT_ALLOWED") problems.push(`answered ${describe(response)}; expected what any OPTIONS gets, 405 METHOD_NOT_ALLOWED in the family's error body (D44: a preflight not granted goes through the ordinary pipeline; D39)`);
  return [...problems, ...varyProblems(response)];
}

function grantedRequestProblems(op: ContractOperation, origin: string, response: ObservedResponse, contractResponseHeaders: Set<string>): string[] {
  const problems = grantProblems(origin, response);
  const exposed = new Set(listOf(response.headers["access-control-expose-headers"]).map((name) => name.toLowerCase()));
  const hidden = documentedResponseHeaders(op).filter((name) => !exposed.has(name));
  if (hidden.length > 0) problems.push(`Access-Control-Expose-Headers is ${shown(response.headers["access-control-expose-headers"])}: ${hidden.join(", ")}, documented on the operation's responses, would be hidden from the page (D44: every response header the contract documents, named)`);
  problems.push(...beyond(response.headers["access-control-expose-headers"], contractResponseHeaders, "Access-Control-Expose-Headers"));
  return problems;
}

/** The operation whose answers the counts are read on: the family's first GET without parameters. */
export function countsReadOn(operations: readonly ContractOperation[]): ContractOperation | undefined {
  return operations.find((o) => o.method === "GET" && pathParameters(o).length === 0);
}

interface Count {
  remaining: number;
  reset: string | undefined;
}

/** The rate-limit count an answer announces, if any. */
function countOf(response: ObservedResponse): Count | undefined {
  const remaining = Number(response.headers["x-ratelimit-remaining"]);
  return response.headers["x-ratelimit-remaining"] === undefined || !Number.isInteger(remaining) ? undefined : { remaining, reset: response.headers["x-ratelimit-reset"] };
}

/**
 * Preflights are not counted (D44: answered before rate limiting): the counts a request without
 * a key and one with the primary key announce fall by one each from one reading to the next,
 * their own request, whatever preflights went between. A window renewed between two readings
 * shows as another reset: read again, once.
 */
async function preflightsNotCounted(env: DerivedEnv, origin: string): Promise<void> {
  const op = countsReadOn(env.ctx.contract.operations);
  if (!op) return;
  const read = async () => {
    const request = plannedRequest(env, op, {});
    return { request, keyless: await env.send(request, "none"), keyed: await env.send(request, "primary") };
  };
  let varyJudged = false;
  await env.attempt(op.operationId, "preflight-not-counted", TITLES["preflight-not-counted"]!(op), async () => {
    for (let attempt = 1; attempt <= 2; attempt++) {
      const before = await read();
      if (!varyJudged) {
        varyJudged = true;
        env.judge(
          { operationId: op.operationId, variant: "vary-without-origin", title: TITLES["vary-without-origin"]!(op), covers: env.covered(op.operationId, before.keyed.status), reproduction: env.reproduce(before.request, "primary") },
          varyProblems(before.keyed),
        );
      }
      const preflight = preflightOf(env, op, origin);
      for (let i = 0; i < PREFLIGHTS_BETWEEN_READINGS; i++) await env.send(preflight, "none");
      const after = await read();
      const pairs = (["keyless", "keyed"] as const).map((which) => ({ which, from: countOf(before[which]), to: countOf(after[which]) })).filter((p) => p.from && p.to);
      if (pairs.length === 0) throw new NotApplicable("the server announces no X-RateLimit-Remaining: whether a preflight counts cannot be seen");
      if (pairs.some((p) => p.from!.reset !== p.to!.reset || p.from!.remaining === 0)) continue;
      const problems = pairs
        .filter((p) => p.to!.remaining !== p.from!.remaining - 1)
        .map((p) => `the ${p.which === "keyless" ? "count of requests without a key" : "primary key's count"} went from ${p.from!.remaining} to ${p.to!.remaining} remaining over ${PREFLIGHTS_BETWEEN_READINGS} preflights and one request of its own: preflights were counted (D44: answered before rate limiting)`);
      env.judge({ operationId: op.operationId, variant: "preflight-not-counted", title: TITLES["preflight-not-counted"]!(op), covers: [], reproduction: env.reproduce(preflight, "none") }, problems);
      return;
    }
    throw new NotApplicable("a rate-limit window renewed (or was used up) between the readings, twice: whether a preflight counts was not seen");
  });
}

/**
 * A preflight is an OPTIONS carrying `Access-Control-Request-Method` (D44): an OPTIONS from a
 * granted origin without it gets what any OPTIONS gets (405 METHOD_NOT_ALLOWED, D39), and the
 * operation's request carrying it is answered as the request; both with the grant.
 */
async function notPreflights(env: DerivedEnv, origin: string): Promise<void> {
  const op = countsReadOn(env.ctx.contract.operations);
  if (!op) return;
  await env.attempt(op.operationId, "not-a-preflight", TITLES["not-a-preflight"]!(op), async () => {
    const request = plannedRequest(env, op, {});
    const options = { ...request, method: "OPTIONS", headers: { origin } };
    const bare = await env.send(options, "none");
    const announced = { ...request, headers: { ...request.headers, origin, "access-control-request-method": op.method } };
    const answered = await env.send(announced, "primary");
    const problems = [
      ...(bare.status === 405 && errorCodeOf(jsonOf(bare.body)) === "METHOD_NOT_ALLOWED" ? [] : [`an OPTIONS without Access-Control-Request-Method answered ${describe(bare)}; expected what any OPTIONS gets, 405 METHOD_NOT_ALLOWED (D39)`]),
      ...(answered.status === 204 || answered.headers["access-control-expose-headers"] === undefined ? [`${op.method} ${op.path} carrying Access-Control-Request-Method answered ${describe(answered)} without Access-Control-Expose-Headers: it was taken for a preflight`] : []),
      ...[bare, answered].flatMap((response) => grantProblems(origin, response)),
    ];
    env.judge({ operationId: op.operationId, variant: "not-a-preflight", title: TITLES["not-a-preflight"]!(op), covers: env.covered(op.operationId, answered.status), reproduction: `${env.reproduce(options, "none")}\n${env.reproduce(announced, "primary")}` }, problems);
  });
}
