/**
 * Family A (v1) client: charges and the merchant, typed by the generated `paths`.
 *
 *   const familyA = createFamilyAClient({ baseUrl: "https://api.example.com", apiKey: "sk_live_..." });
 *   const charge = await familyA.unwrap(familyA.POST("/v1/charges", { body: { amount: 1990, method: "pix" } }));
 */
import type { StrictClient } from "./strict-methods.ts";
import { contract, type paths } from "../../generated/types/family-a.ts";
import { assembleClient } from "./assemble.ts";
import { familyAErrorFrom } from "./family-a-errors.ts";
import type { ClientPaths } from "./contract-types.ts";
import type { CommonClientOptions } from "./options.ts";
import type { RateLimitInfo } from "./rate-limit.ts";
import type { DataOf, ResultLike } from "./results.ts";

/** Family A paths as the client accepts them (the Idempotency-Key header is optional). */
export type FamilyAPaths = ClientPaths<paths>;

export interface FamilyAClientOptions extends CommonClientOptions {
  /**
   * Base address of family A ({base_url}). Defaults to the OpenAPI server variable default,
   * a placeholder (decision D37): set it for real use.
   */
  baseUrl?: string;
}

export interface FamilyAClient extends StrictClient<FamilyAPaths> {
  /** Rate-limit information (limit, remaining, reset) of the latest response, if it had any. */
  readonly rateLimit: RateLimitInfo | undefined;
  /** The body of a successful call; throws FamilyAApiError (or UnexpectedResponseError) otherwise. */
  unwrap<Result extends ResultLike>(call: Result | Promise<Result>): Promise<DataOf<Result>>;
}

/** Default base address of family A: the OpenAPI server variable default (a placeholder, D37). */
export const defaultFamilyABaseUrl: string = contract.serverVariables.base_url;

export function createFamilyAClient(options: FamilyAClientOptions): FamilyAClient {
  const { client, rateLimit } = assembleClient<FamilyAPaths>(contract, options.baseUrl ?? defaultFamilyABaseUrl, options);
  return {
    ...client,
    get rateLimit() {
      return rateLimit();
    },
    async unwrap<Result extends ResultLike>(call: Result | Promise<Result>): Promise<DataOf<Result>> {
      const result = await call;
      if (result.response.ok) return result.data as DataOf<Result>;
      throw familyAErrorFrom(result.error, result.response);
    },
  };
}
