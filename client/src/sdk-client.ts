/**
 * Family B (SDK) client: health, customers, boletos, PIX and transactions, typed by the
 * generated `paths`.
 *
 *   const sdk = createSdkClient({ environment: "sandbox", apiKey: "xyz_test_..." });
 *   const customer = await sdk.unwrap(sdk.GET("/api/v1/sdk/customers/{id}", { params: { path: { id } } }));
 */
import type { StrictClient } from "./strict-methods.ts";
import { contract, type paths } from "../../generated/types/family-b.ts";
import { assembleClient } from "./assemble.ts";
import type { ClientPaths } from "./contract-types.ts";
import { envelopeData, type EnvelopeData } from "./envelope.ts";
import type { CommonClientOptions } from "./options.ts";
import type { RateLimitInfo } from "./rate-limit.ts";
import type { DataOf, ResultLike } from "./results.ts";
import { sdkErrorFrom } from "./sdk-errors.ts";

/** Family B paths as the client accepts them. */
export type SdkPaths = ClientPaths<paths>;

export type SdkEnvironment = "sandbox" | "production";

export interface SdkClientOptions extends CommonClientOptions {
  /** `sandbox` ({sdk_sandbox_url}), `production` ({sdk_base_url}) or a base URL. */
  environment: SdkEnvironment | (string & {});
  /** Overrides the sandbox address (default: the OpenAPI server variable default, a placeholder, D37). */
  sandboxUrl?: string;
  /** Overrides the production address (default: the OpenAPI server variable default, a placeholder, D37). */
  productionUrl?: string;
}

export interface SdkClient extends StrictClient<SdkPaths> {
  /** Rate-limit information (limit, remaining, reset) of the latest response, if it had any. */
  readonly rateLimit: RateLimitInfo | undefined;
  /** `data` from the success envelope; throws SdkEnvelope1Error / SdkEnvelope2Error otherwise. */
  unwrap<Result extends ResultLike>(call: Result | Promise<Result>): Promise<EnvelopeData<DataOf<Result>>>;
  /** The whole success envelope (`{success, data, timestamp}`); throws like `unwrap`. */
  unwrapEnvelope<Result extends ResultLike>(call: Result | Promise<Result>): Promise<DataOf<Result>>;
}

/**
 * Default addresses of the two environments: the defaults of the OpenAPI server variables
 * `sdk_sandbox_url` and `sdk_base_url` (placeholders, decision D37), read at build time.
 */
export const sdkEnvironmentUrls: Readonly<Record<SdkEnvironment, string>> = {
  sandbox: contract.serverVariables.sdk_sandbox_url,
  production: contract.serverVariables.sdk_base_url,
};

/** The base URL a set of options points at. */
export function resolveSdkBaseUrl(options: Pick<SdkClientOptions, "environment" | "sandboxUrl" | "productionUrl">): string {
  const { environment } = options;
  if (environment === "sandbox") return options.sandboxUrl ?? sdkEnvironmentUrls.sandbox;
  if (environment === "production") return options.productionUrl ?? sdkEnvironmentUrls.production;
  if (typeof environment === "string" && /^https?:\/\//i.test(environment)) return environment;
  throw new TypeError(`environment must be "sandbox", "production" or an http(s) base URL; got ${JSON.stringify(environment)}`);
}

export function createSdkClient(options: SdkClientOptions): SdkClient {
  const { client, rateLimit } = assembleClient<SdkPaths>(contract, resolveSdkBaseUrl(options), options);
  async function unwrapEnvelope<Result extends ResultLike>(call: Result | Promise<Result>): Promise<DataOf<Result>> {
    const result = await call;
    if (result.response.ok) return result.data as DataOf<Result>;
    throw sdkErrorFrom(result.error, result.response);
  }
  return {
    ...client,
    get rateLimit() {
      return rateLimit();
    },
    unwrapEnvelope,
    async unwrap<Result extends ResultLike>(call: Result | Promise<Result>): Promise<EnvelopeData<DataOf<Result>>> {
      return envelopeData(await unwrapEnvelope(call));
    },
  };
}
