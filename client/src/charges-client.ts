/**
 * Family A (v1) client: charges and the merchant, typed by the generated `paths`.
 *
 *   const charges = createChargesClient({ baseUrl: "https://api.example.com", apiKey: "sk_live_..." });
 *   const charge = await charges.unwrap(charges.POST("/v1/charges", { body: { amount: 1990, method: "pix" } }));
 */
import type { StrictClient } from "./strict-methods.ts";
import { contract, type paths } from "../../generated/types/family-a.ts";
import { assembleClient } from "./assemble.ts";
import { chargesErrorFrom } from "./charges-errors.ts";
import type { ClientPaths } from "./contract-types.ts";
import type { CommonClientOptions } from "./options.ts";
import type { RateLimitInfo } from "./rate-limit.ts";
import type { DataOf, ResultLike } from "./results.ts";

/** Family A paths as the client accepts them (the Idempotency-Key header is optional). */
export type ChargesPaths = ClientPaths<paths>;

export interface ChargesClientOptions extends CommonClientOptions {
  /**
   * Base address of family A ({base_url}). Defaults to the OpenAPI server variable default,
   * a placeholder (decision D37): set it for real use.
   */
  baseUrl?: string;
}

export interface ChargesClient extends StrictClient<ChargesPaths> {
  /** Rate-limit information (limit, remaining, reset) of the latest response, if it had any. */
  readonly rateLimit: RateLimitInfo | undefined;
  /** The body of a successful call; throws ChargesApiError (or UnexpectedResponseError) otherwise. */
  unwrap<Result extends ResultLike>(call: Result | Promise<Result>): Promise<DataOf<Result>>;
}

/** Default base address of family A: the OpenAPI server variable default (a placeholder, D37). */
export const defaultChargesBaseUrl: string = contract.serverVariables.base_url;

export function createChargesClient(options: ChargesClientOptions): ChargesClient {
  const { client, rateLimit } = assembleClient<ChargesPaths>(contract, options.baseUrl ?? defaultChargesBaseUrl, options);
  return {
    ...client,
    get rateLimit() {
      return rateLimit();
    },
    async unwrap<Result extends ResultLike>(call: Result | Promise<Result>): Promise<DataOf<Result>> {
      const result = await call;
      if (result.response.ok) return result.data as DataOf<Result>;
      throw chargesErrorFrom(result.error, result.response);
    },
  };
}
