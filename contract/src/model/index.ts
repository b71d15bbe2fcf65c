/**
 * The contract model: the only code that reads the generated OpenAPI documents. Products
 * import from here (`@payment-collection/contract/model/index.ts`).
 *
 *   layout             where the generated files are
 *   documents          loading them (families, sandbox controls; 3.0/3.1; referenced/dereferenced)
 *   operations         the one operation type and the walk over a document's paths
 *   markings           decision markings (x-basis/x-decision, x-decided*, x-decided-responses...)
 *   list-filters       what a list's query filter keeps (x-list-filter), the items of a list body
 *   refs               $ref following, schemas reached by a body
 *   matching           operation by method + concrete path
 *   json-schema        OpenAPI schema -> JSON Schema, ajv validators (with the domain formats)
 *   domain-formats     CPF/CNPJ, BR Code, boleto... as ajv formats
 *   response-validator a response against the contract (3.0 and 3.1)
 *   family-contract    the conformance suites' per-family view
 *   webhook-targets    request members the service will call (x-webhook-target, D48)
 *   echoes             response members that give back a request member as sent (x-echoes)
 */
export { isObject, asList, type Json } from "./json.ts";
export {
  CONTRACT_ROOT,
  CONTROL_SERVICES,
  FAMILIES,
  FAMILY_IDS,
  GENERATED_DIR,
  OPENAPI_VERSIONS,
  familyName,
  isFamilyId,
  openapiFile,
  openapiPath,
  type ControlServiceId,
  type FamilyId,
  type OpenApiVersionId,
} from "./layout.ts";
export {
  SERVICE_IDS,
  familyOf,
  loadContractDocuments,
  loadDocument,
  openApiVersionOf,
  type ContractDocument,
  type DocumentForm,
  type DocumentOptions,
  type ServiceId,
} from "./documents.ts";
export {
  COMPARISON_WORDS,
  LIST_FILTER_COMPARISONS,
  LIST_FILTER_EXTENSION,
  instantOf,
  listFilterOf,
  listItemsOf,
  listedItems,
  satisfiesFilter,
  type ListFilter,
  type ListFilterComparison,
} from "./list-filters.ts";
export {
  HTTP_METHODS,
  exampleOf,
  listOperations,
  operationsOf,
  parameterOf,
  pathTemplatesOf,
  rateLimitsOf,
  responseFor,
  type ContractHeader,
  type ContractMedia,
  type ContractOperation,
  type ContractParameter,
  type ContractRequestBody,
  type ContractResponse,
  type RateLimit,
  type RateLimitBucket,
  type SecurityRequirement,
} from "./operations.ts";
export {
  decidedBehaviourOf,
  decidedKeywordsOf,
  decisionOf,
  operationMarkings,
  type DecidedAspect,
  type DecidedBehaviour,
  type DecidedKeywords,
  type DecidedResponse,
  type OperationMarkings,
} from "./markings.ts";
export { componentSchemasReachedBy, deref, inlineRefs, resolvePointer, valueAtInstancePath } from "./refs.ts";
export { OperationIndex, pathOfUrl, type OperationMatch } from "./matching.ts";
export {
  compileJsonSchema,
  compileOpenApiSchema,
  createSchemaValidator,
  describeSchemaErrors,
  DOMAIN_FORMAT_EXTENSION,
  JSON_SCHEMA_DIALECT,
  subschemas,
  toJsonSchema,
  type JsonSchema,
} from "./json-schema.ts";
export { MALFORMED_REQUEST_CODE, REFUSAL_CODES_EXTENSION, tiedRefusalCode } from "./refusal-codes.ts";
export { DOMAIN_FORMATS, addDomainFormats, domainFormatProblem, domainFormatReason, schemaErrorText, type DomainFormat } from "./domain-formats.ts";
export {
  createResponseValidator,
  headerText,
  headerValue,
  pathDecodes,
  isJsonMediaType,
  mediaTypeOf,
  parseJsonBody,
  responseProblems,
  schemaProblems,
  type ObservedResponse,
  type ResponseCheck,
  type ResponseValidator,
} from "./response-validator.ts";
export { WEBHOOK_TARGET_EXTENSION, webhookTargetMembers, type WebhookTargetMember } from "./webhook-targets.ts";
export { ECHOES_EXTENSION, echoedMemberOf, echoesOf, type Echo } from "./echoes.ts";
export { apiKeyHeadersOf, documentedPairs, findOperation, findResponse, loadFamilyContract, schemasReachedBy, type FamilyContract } from "./family-contract.ts";
