/**
 * "| User-Agent | optional | client identification |" (family B): the header only identifies
 * the client, so a server answers a request alike whatever User-Agent it carries, or none.
 * The suite's own requests carry one; here the health check is sent with another client's
 * User-Agent and with none at all. Node's fetch always adds a User-Agent, so the request
 * without one goes out through node:http, outside the pacer (one request: no limit is near).
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { SentRequest } from "../core/check-context.ts";
import type { Scenario } from "../core/scenario.ts";
import type { ObservedResponse } from "../core/validate.ts";
import { describe, sender } from "./support.ts";

/** A User-Agent no server can know in advance. */
const ANOTHER_CLIENT = "another-client/0.0 (conformance; any identification)";

/** Sends a built request exactly as given: no header added, User-Agent included. */
function sendAsIs(sent: SentRequest): Promise<ObservedResponse> {
  const send = sent.url.startsWith("https:") ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(sent.url, { method: sent.method, headers: sent.headers, timeout: 30_000 }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
        resolve({ status: incoming.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString("utf8") });
      });
      incoming.on("error", reject);
    });
    outgoing.on("timeout", () => outgoing.destroy(new Error("no answer within 30 s")));
    outgoing.on("error", reject);
    outgoing.end(sent.body);
  });
}

export const userAgentOptional: Scenario = {
  id: "family-b/auth/user-agent-optional",
  family: "family-b",
  profile: "seed",
  title: "a request is answered alike with any User-Agent or none",
  account: "any",
  statements: ["B-AUTH-HEADER-user-agent"],
  covers: [{ operationId: "getHealth", status: "200" }],
  async run(ctx, check) {
    const send = sender(ctx, this.id);
    const other = await send("getHealth", { headers: { "user-agent": ANOTHER_CLIENT } });
    check.that(other.status === 200, `GET /sdk/status/health with the User-Agent "${ANOTHER_CLIENT}" answered ${describe(other)}, expected 200`);
    if (other.status === 200) check.response("getHealth", "200", other, "another User-Agent");
    const bare = ctx.buildRequest("getHealth");
    delete bare.headers["user-agent"];
    const at = Date.now();
    const none = await sendAsIs(bare);
    // Outside the pacer, so recorded here: the run's exchange log holds every request.
    ctx.pacer.record({
      startedAt: at, endedAt: Date.now(), checkId: this.id, direction: "sent", method: bare.method, url: bare.url,
      requestHeaders: bare.headers, requestBody: bare.body, status: none.status, responseHeaders: none.headers, responseBody: none.body,
    });
    check.that(none.status === 200, `GET /sdk/status/health without a User-Agent header answered ${describe(none)}, expected 200`);
    if (none.status === 200) check.response("getHealth", "200", none, "no User-Agent");
  },
};
