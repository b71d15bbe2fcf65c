/** Family B `GET /sdk/status/health`: status and the interface version `v1`. */
import type { HandlerTable } from "../app.ts";
import { dataEnvelope } from "../envelopes.ts";

export const healthHandlers: HandlerTable = {
  getHealth: {
    handle(ctx) {
      return dataEnvelope(200, { status: "ok", timestamp: ctx.now.toISOString(), version: "v1" });
    },
  },
};
