/**
 * Family B (SDK) client: health, customers, boletos, PIX and transactions, typed by the
 * generated `paths`.
 *
 *   const familyB = createFamilyBClient({ environment: "sandbox", apiKey: "xyz_test_..." });
 *   const customer = await familyB.unwrap(familyB.GET("/api/v1/sdk/customers/{id}", { params: { path: { id } } }));
 */
import type { StrictClient } from "./strict-methods.ts";
import { contract, type paths } from "../../generated/types/family-b.ts";
import { assembleClient } from "./assemble.ts";
import type { ClientPaths } from "./contract-types.ts";
import { envelopeData, type EnvelopeData } from "./envelope.ts";
import type { CommonClientOptions } from "./options.ts";
import type { RateLimitInfo } from "./rate-limit.ts";
import type { DataOf, ResultLike } from "./results.ts";
import { familyBErrorFrom } from "./family-b-errors.ts";

/** Family B paths as the client accepts them. */
export type FamilyBPaths = ClientPaths<paths>;

export type FamilyBEnvironment = "sandbox" | "production";

export interface FamilyBClientOptions extends CommonClientOptions {
  /** `sandbox` ({sdk_sandbox_url}), `production` ({sdk_base_url}) or a base URL. */
  environment: FamilyBEnvironment | (string & {});
  /** Overrides the sandbox address (default: the OpenAPI server variable default, a placeholder, D37). */
  sandboxUrl?: string;
  /** Overrides the production address (default: the OpenAPI server variable default, a placeholder, D37). */
  productionUrl?: string;
}

export interface FamilyBClient extends StrictClient<FamilyBPaths> {
  /** Rate-limit information (limit, remaining, reset) of the latest response, if it had any. */
  readonly rateLimit: RateLimitInfo | undefined;
  /** `data` from the success envelope; throws FamilyBEnvelope1Error / FamilyBEnvelope2Error otherwise. */
  unwrap<Result extends ResultLike>(call: Result | Promise<Result>): Promise<EnvelopeData<DataOf<Result>>>;
  /** The whole success envelope (`{success, data, timestamp}`); throws like `unwrap`. */
  unwrapEnvelope<Result extends ResultLike>(call: Result | Promise<Result>): Promise<DataOf<Result>>;
}

/**
 * Default addresses of the two environments: the defaults of the OpenAPI server variables
 * `sdk_sandbox_url` and `sdk_base_url` (placeholders, decision D37), read at build time.
 */
export const familyBEnvironmentUrls: Readonly<Record<FamilyBEnvironment, string>> = {
  sandbox: contract.serverVariables.sdk_sandbox_url,
  production: contract.serverVariables.sdk_base_url,
};

/** The base URL a set of options points at. */
export function resolveFamilyBBaseUrl(options: Pick<FamilyBClientOptions, "environment" | "sandboxUrl" | "productionUrl">): string {
  const { environment } = options;
  if (environment === "sandbox") return options.sandboxUrl ?? familyBEnvironmentUrls.sandbox;
  if (environment === "production") return options.productionUrl ?? familyBEnvironmentUrls.production;
  if (typeof environment === "string" && /^https?:\/\//i.test(environment)) return environment;
  // Family A's option, given to family B from plain JavaScript, where no type stops it.
  const baseUrl = (options as { baseUrl?: unknown }).baseUrl;
  const instead = environment === undefined && baseUrl !== undefined ? ` (baseUrl is family A's option: give family B's base URL as environment: ${JSON.stringify(baseUrl)})` : "";
  throw new TypeError(`environment must be "sandbox", "production" or an http(s) base URL; got ${JSON.stringify(environment)}${instead}`);
}

export function createFamilyBClient(options: FamilyBClientOptions): FamilyBClient {
  const { client, rateLimit } = assembleClient<FamilyBPaths>(contract, resolveFamilyBBaseUrl(options), options);
  async function unwrapEnvelope<Result extends ResultLike>(call: Result | Promise<Result>): Promise<DataOf<Result>> {
    const result = await call;
    if (result.response.ok) return result.data as DataOf<Result>;
    throw familyBErrorFrom(result.error, result.response);
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
