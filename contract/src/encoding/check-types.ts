/**
 * The shapes of the encoding checks of the statement catalogue (mirrors the header comment of
 * spec/statements.yaml). Each check names one element of a generated document and what it
 * must say; the checks themselves are in checks-*.ts.
 */
import type { FamilyId, Json } from "../model/index.ts";

export type { Json };
export type OpenApiDocument = Json;


/** Where a schema is found: a named component, or the body of an operation's request/response. */
export interface SchemaLocator {
  /** Name of a schema under components.schemas. */
  schema?: string;
  /** operationId, or "*" for every operation of the document (narrowed by `methods`). */
  operation?: string;
  /** With operation "*": only operations with these HTTP methods (lower case). */
  methods?: string[];
  /** Response selector: "201", "2xx", "4xx", "error" (>= 400), "*", or a list of those. */
  status?: string | number | Array<string | number>;
  /** Locate the request body instead of a response body. */
  request?: boolean;
  /** Media type of the body; every JSON-ish media type of the body when omitted. */
  contentType?: string;
  /** Dotted property path from the body root; `[]` steps into array items; "" is the root. */
  path?: string;
}

/** Assertions about one schema node (a property, a parameter's schema, a header's schema). */
export interface SchemaAssertions {
  /** The element must not exist (e.g. "they carry no phoneNumber"). */
  absent?: boolean;
  /** Non-null JSON type, or a list of admissible alternatives. */
  type?: string | string[];
  nullable?: boolean;
  /** Required in its parent object (properties only). */
  required?: boolean;
  /** The only admitted non-null value (`const`, or a one-value `enum`). */
  const?: unknown;
  /** The admitted non-null values, exactly (order ignored). */
  enum?: unknown[];
  /** Values that must be among the admitted ones. */
  enumIncludes?: unknown[];
  format?: string | string[];
  maxLength?: number;
  minLength?: number;
  minProperties?: number;
  /** The node carries at least one `pattern`. */
  pattern?: boolean;
  propertiesInclude?: string[];
  propertiesExclude?: string[];
  requiredInclude?: string[];
  requiredExactly?: string[];
  requiredSubsetOf?: string[];
  /** Instances the schema must accept / reject (json-schema.ts: Ajv, draft by OpenAPI version). */
  accepts?: unknown[];
  rejects?: unknown[];
  /**
   * Instances a STRICT validator must accept (checks-strict.ts): under OpenAPI 3.0, `nullable`
   * only widens a `type` of the same schema object, as Dredd and Prism read it.
   */
  strictAccepts?: unknown[];
  /**
   * Properties the object must forbid although it stays open: a `not: {required: [name]}`
   * (or `not: {anyOf: [{required: [name]}, ...]}`) rejects any instance that has them.
   */
  forbids?: string[];
  /**
   * The node names this domain format (`x-domain-format`: br-code, cpf-cnpj, boleto-barcode,
   * boleto-bank-line, boleto-bank-slip) as the document's word: no `x-decided` on the node
   * lists the extension, so the seed profile holds values to it too.
   */
  domainFormat?: string;
}

interface CheckBase {
  check: string;
  /** Restricts the check to one family's documents (`family-a` or `family-b`). */
  family?: FamilyId;
}

export interface OperationCheck extends CheckBase {
  check: "operation";
  method: string;
  path: string;
  operationId?: string;
}
export interface ParameterCheck extends CheckBase, Omit<SchemaAssertions, "required"> {
  check: "parameter";
  operation: string;
  methods?: string[];
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
}
export interface RequestBodyCheck extends CheckBase {
  check: "request-body";
  operation: string;
  methods?: string[];
  contentType?: string;
  required?: boolean;
}
export interface PropertyCheck extends CheckBase, SchemaLocator, SchemaAssertions {
  check: "property";
}
export interface EnumCheck extends CheckBase, SchemaLocator {
  check: "enum";
  values: unknown[];
  /** true: exactly these values; false (default): these values among others. */
  exact?: boolean;
}
export interface ResponseCheck extends CheckBase {
  check: "response";
  operation: string;
  methods?: string[];
  /** Omitted: any response of the operation (useful with errorCode when the status is not given). */
  status?: string | number | Array<string | number>;
  contentType?: string;
  errorCode?: string;
  /** Where the error code sits in the body: `code`, `error.code`, `error.errorCode`. */
  codePath?: string;
}
export interface ResponseHeaderCheck extends CheckBase, Omit<SchemaAssertions, "required"> {
  check: "response-header";
  operation: string;
  methods?: string[];
  status: string | number | Array<string | number>;
  name: string;
  required?: boolean;
}
export interface SecuritySchemeCheck extends CheckBase {
  check: "security-scheme";
  type: string;
  in?: string;
  name?: string;
  /** The scheme is required by every operation (directly or through the document default). */
  everyOperation?: boolean;
}
export interface RequiredScopeCheck extends CheckBase {
  check: "required-scope";
  operation: string;
  scope: string;
}
export interface ServerCheck extends CheckBase {
  check: "server";
  /** A server with this URL template exists. */
  url?: string;
  /** Its template variables, all declared. */
  variables?: string[];
  descriptionIncludes?: string;
  /** The document declares exactly these server URLs. */
  urls?: string[];
}
export interface DescriptionCheck extends CheckBase, SchemaLocator {
  check: "description";
  target: "info" | "operation" | "security-scheme" | "server" | "schema" | "parameter" | "response";
  /** Security scheme: its header/query name. Parameter: its name. */
  name?: string;
  /** Server: its URL template. */
  url?: string;
  contains: string | string[];
}
export interface ContentTypesCheck extends CheckBase {
  check: "content-types";
  /** Regular expression every request and response media type must match. */
  matches: string;
}
export interface PropertyNamesCheck extends CheckBase {
  check: "property-names";
  /** Regular expression every property name of every request and response body must match. */
  matches: string;
}
export interface PathsCheck extends CheckBase {
  check: "paths";
  /** Regular expression every path of the document must match. */
  matches: string;
}
export interface OpenObjectsCheck extends CheckBase {
  check: "open-objects";
}
/** Every example and every null the document admits validates under a strict 3.0 reading. */
export interface StrictExamplesCheck extends CheckBase {
  check: "strict-examples";
}
/**
 * Operation extension `x-rate-limits`: exactly these buckets, limits and windows on every
 * selected operation (`operation: "*"` with `methods` narrows).
 */
export interface RateLimitsCheck extends CheckBase {
  check: "rate-limits";
  operation: string;
  methods?: string[];
  /** Expected entries (order ignored), or entries that must be among them with `includes`. */
  limits: Array<{ bucket: string; limit: number; window: string }>;
  /** true: the listed entries must be among the operation's (others allowed). */
  includes?: boolean;
}
/**
 * Every element of the document is the document's word or marked as a decision
 * (provenance.ts): names of parameters, headers, properties, statuses, error codes and
 * required entries.
 */
export interface ProvenanceCheck extends CheckBase {
  check: "provenance";
}

export type EncodingCheck =
  | OperationCheck
  | ParameterCheck
  | RequestBodyCheck
  | PropertyCheck
  | EnumCheck
  | ResponseCheck
  | ResponseHeaderCheck
  | SecuritySchemeCheck
  | RequiredScopeCheck
  | ServerCheck
  | DescriptionCheck
  | ContentTypesCheck
  | PropertyNamesCheck
  | PathsCheck
  | OpenObjectsCheck
  | StrictExamplesCheck
  | RateLimitsCheck
  | ProvenanceCheck;

export type CheckKind = EncodingCheck["check"];
