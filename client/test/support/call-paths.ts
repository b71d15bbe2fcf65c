/**
 * The two ways a client call runs: directly (no caller middleware: the client builds the
 * request itself, see src/client/direct-call.ts) and through openapi-fetch (as soon as a
 * caller middleware is registered). Behavioural tests run once per path, with factories
 * that register a middleware doing nothing for the openapi-fetch path.
 */
import type { Middleware } from "openapi-fetch";
import {
  createChargesClient,
  createSdkClient,
  type ChargesClient,
  type ChargesClientOptions,
  type SdkClient,
  type SdkClientOptions,
} from "../../src/index.ts";

/** A middleware that changes nothing: its presence alone sends every call through openapi-fetch. */
export const passThroughMiddleware: Middleware = {
  onRequest() {
    return undefined;
  },
};

export interface CallPath {
  name: string;
  createChargesClient(options: ChargesClientOptions): ChargesClient;
  createSdkClient(options: SdkClientOptions): SdkClient;
}

function through<Client extends { use(...middleware: Middleware[]): void }>(client: Client): Client {
  client.use(passThroughMiddleware);
  return client;
}

export const CALL_PATHS: readonly CallPath[] = [
  { name: "direct call", createChargesClient, createSdkClient },
  {
    name: "through openapi-fetch",
    createChargesClient: (options) => through(createChargesClient(options)),
    createSdkClient: (options) => through(createSdkClient(options)),
  },
];
