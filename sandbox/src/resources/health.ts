/**
 * Family B `GET /sdk/status/health`: status and the interface version `v1`, plus the sandbox's
 * store (`store: {kind, status}`, an extra member clients ignore) and the header
 * `X-Sandbox-Store` (`sqlite` or `postgres`). When the database cannot be reached the request
 * gets the pipeline's 503 with Retry-After before it gets here.
 */
import type { HandlerTable } from "../app.ts";
import { dataEnvelope } from "../envelopes.ts";
import { StoreUnavailableError } from "../store/types.ts";

export const healthHandlers: HandlerTable = {
  getHealth: {
    async handle(ctx) {
      const store = ctx.app.store;
      const ping = await store.ping();
      if (!ping.ok) throw new StoreUnavailableError(ping.error);
      // Stryker disable next-line ObjectLiteral,StringLiteral: the sandbox's own member, which the contract does not name and the document tells clients to ignore; the sandbox's tests read it (sandbox/test/postgres/restart.test.ts)
      const own = { kind: store.info.kind, status: "ok", instance: ctx.app.instance };
      const reply = dataEnvelope(200, { status: "ok", timestamp: ctx.now.toISOString(), version: "v1", store: own });
      // Stryker disable next-line ObjectLiteral: a header the contract does not name, for the sandbox's operators
      return { ...reply, headers: { "X-Sandbox-Store": store.info.kind } };
    },
  },
};
