/**
 * Decision D39: a request refused before any operation is found carries a JSON error body too,
 * by its path when its request line can be read (problem details under `/v1`, envelope 1
 * elsewhere), otherwise problem details. Sent byte by byte (raw-http.ts), since no HTTP client
 * writes them, to the family's first path without parameters:
 * - headers past any usual limit (64 KiB: 431). A server whose limit is higher reads the request
 *   and answers it as any other (401: it carries no key): nothing to judge there;
 * - a header line without its colon (400, the body by the path);
 * - a request line that is not HTTP (400, problem details: there is no path to follow);
 * - a request whose headers never end (its request line and one header, then nothing: 408
 *   `REQUEST_TIMEOUT`), when the target declares the server's request timeout
 *   (`requestTimeoutMs`) and it is at most MAX_TIMEOUT_MS: the answer must come within the
 *   timeout and a margin (servers look for late requests now and then: Node every 30 s by
 *   default, the sandbox as it is set). In the body by the path, or in problem details: a server
 *   that gives up on a request it never finished reading may not have kept its request line
 *   (Node's parser does not). Otherwise not sent: it would wait out the server's usual minute,
 *   longer than a run should take for one answer; the pass says so.
 */
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import { NotApplicable, type FamilyContext } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import type { ObservedResponse } from "../core/validate.ts";
import { contractPaths } from "./paths-unknown-and-wrong-method.ts";
import { answerProblems, bodyOfPath, type Body } from "./refusal-answers.ts";
import { rawExchange } from "./raw-http.ts";

/** Past the header limit of usual servers (Node 16 KiB, nginx 8 to 32 KiB, Apache 8 KiB a line). */
const LARGE_HEADERS = 64 * 1024;

/** The longest declared request timeout a run waits out. */
export const MAX_TIMEOUT_MS = 10_000;

/** How long past a declared timeout its 408 may come: the server's checks for late requests, a loaded machine. */
const marginOf = (timeoutMs: number) => Math.max(3_000, timeoutMs);

/**
 * Sends raw bytes to the target and gives the answer. Not in the run's record of exchanges:
 * those are requests of the contract's operations, which `verify` and the validating proxy judge
 * again as the operation of their path, and these bytes are no operation's request (the server
 * refuses them before finding one).
 */
async function sendRaw(ctx: FamilyContext, bytes: string, timeoutMs?: number): Promise<ObservedResponse | undefined> {
  return rawExchange(ctx.target.baseUrl, bytes, timeoutMs);
}

function refusedBeforeRouting(family: FamilyId): Scenario {
  return {
    id: `${family}/paths/refused-before-routing`,
    family,
    profile: "full",
    decision: "D39",
    title: "a request refused before any operation is found (headers too large 431, not valid HTTP 400, too slow 408) carries the family's error body, by its path",
    statements: ["AB-SERVICE-PRINCIPLE-json-bodies"],
    async run(ctx, check) {
      const path = contractPaths(ctx).find((p) => p.methods.includes("GET") && !p.template.includes("{"));
      if (!path) throw new NotApplicable("the family has no GET operation without path parameters");
      const base = new URL(ctx.target.baseUrl);
      const target = `${base.pathname.replace(/\/+$/, "")}${path.concrete}`;
      // No key: none is needed to be refused before routing.
      const head = `GET ${target} HTTP/1.1\r\nHost: ${base.host}\r\n`;
      /** Judges an answer: it must be right in one of `bodies` (the first one's problems are told). */
      const judge = (answer: ObservedResponse | undefined, status: number, code: string, bodies: Body[], what: string) => {
        if (!answer) return check.that(false, `D39: ${what} was answered by a closed connection, expected ${status} ${code} in the family's error body`);
        const problems = bodies.map((body) => answerProblems(ctx, answer, status, code, body));
        if (problems.every((found) => found.length > 0)) for (const problem of problems[0]!) check.that(false, `D39: ${what} ${problem}`);
      };

      const padding = Array.from({ length: LARGE_HEADERS / 1024 }, (_, i) => `X-Conformance-Padding-${i}: ${"a".repeat(1000)}\r\n`).join("");
      const large = await sendRaw(ctx, `${head}${padding}\r\n`);
      // A server whose limit is higher reads it: its 401 for the missing key (or a 2xx) is no refusal of the headers.
      const readAnyway = large !== undefined && (large.status === 401 || (large.status >= 200 && large.status < 300));
      if (!readAnyway) judge(large, 431, "REQUEST_HEADER_FIELDS_TOO_LARGE", [bodyOfPath(path.concrete)], `GET ${path.concrete} with 64 KiB of headers`);

      const badHeader = await sendRaw(ctx, `${head}A header line without its colon\r\n\r\n`);
      judge(badHeader, 400, "BAD_REQUEST", [bodyOfPath(path.concrete)], `GET ${path.concrete} with a header line without its colon`);

      const notHttp = await sendRaw(ctx, "\u0001\u0002 not an HTTP request\r\n\r\n");
      judge(notHttp, 400, "BAD_REQUEST", ["problem-details"], "a request line that is not HTTP");

      const timeoutMs = ctx.target.requestTimeoutMs;
      if (timeoutMs === undefined || timeoutMs > MAX_TIMEOUT_MS) {
        const declared = timeoutMs === undefined ? "declares no request timeout" : `declares a request timeout of ${timeoutMs} ms`;
        return check.notJudged(`D39's 408 for a request too slow to arrive was not sent: the target ${declared} (requestTimeoutMs, at most ${MAX_TIMEOUT_MS} ms), and a run does not wait out a server's usual minute`);
      }
      const wait = timeoutMs + marginOf(timeoutMs);
      const what = `GET ${path.concrete} whose headers never end (the declared request timeout ${timeoutMs} ms)`;
      const slow = await sendRaw(ctx, `${head}X-Conformance-Slow: the rest never comes\r\n`, wait).catch(() => null);
      if (slow === null) return check.that(false, `D39: ${what} had no answer within ${wait / 1000} s, expected 408 REQUEST_TIMEOUT in the family's error body`);
      judge(slow, 408, "REQUEST_TIMEOUT", [bodyOfPath(path.concrete), "problem-details"], what);
    },
  };
}

export const refusedBeforeRoutingA = refusedBeforeRouting("family-a");
export const refusedBeforeRoutingB = refusedBeforeRouting("family-b");
