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
      const reply = dataEnvelope(200, { status: "ok", timestamp: ctx.now.toISOString(), version: "v1", store: { kind: store.info.kind, status: "ok", instance: ctx.app.instance } });
      return { ...reply, headers: { "X-Sandbox-Store": store.info.kind } };
    },
  },
};
