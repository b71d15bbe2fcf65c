/**
 * The checks of one exchange on its own. The response against the documented response of its
 * operation under the profile (status, content type, headers, body schema with the domain
 * formats, members the document says are absent): what the server answered. The request
 * against the operation (path, method, parameters, body, unknown members, wrong types): what
 * the client sent, reported apart (`--consumer`). Expectations are the suites' own
 * (core/profiles/response-expectation.ts); validation is the contract model's.
 */
import type { ErrorObject } from "ajv";
import {
  compileJsonSchema,
  domainFormatReason,
  headerText,
  headerValue,
  isObject,
  responseFor,
  toJsonSchema,
  valueAtInstancePath,
  type ContractOperation,
  type ContractParameter,
  type ContractResponse,
  type JsonSchema,
  type OperationMatch,
} from "@payment-collection/contract/model/index.ts";
import { responseExpectation, mediaTypeAccepted, statusAccepted, describeStatusRule, type Profile, type ResponseExpectation } from "../core/profiles/index.ts";
import { profileSchema } from "../core/profiles/schema-profile.ts";
import { absentMembers, valuesAt, type Catalogue } from "../core/statement-map.ts";
import { errorCodeOf } from "../core/validate.ts";
import { quoted, shortened } from "../core/describe-response.ts";
import { objectView } from "../derived/request-schema.ts";
import type { Finding } from "./attribution.ts";
import { statedMemberFindings } from "./stated-rules.ts";
import { parsedBody, type TrafficExchange } from "./exchange.ts";
import type { FamilyRoute } from "./routing.ts";

const expectations = new Map<string, ResponseExpectation>();
const absentByResponse = new WeakMap<Catalogue, Map<string, ReturnType<typeof absentMembers>>>();

/** The members the catalogue says a response does not carry (read once per response). */
function absentOf(catalogue: Catalogue, route: FamilyRoute, operationId: string, status: string): ReturnType<typeof absentMembers> {
  let byResponse = absentByResponse.get(catalogue);
  if (!byResponse) absentByResponse.set(catalogue, (byResponse = new Map()));
  const key = `${route.family}/${operationId}/${status}`;
  let found = byResponse.get(key);
  if (!found) byResponse.set(key, (found = absentMembers(catalogue, route.contract, { family: route.family, operationId, status })));
  return found;
}

/** The expectation of a documented response (cached: compiled validators are cached per schema object). */
function expectationOf(op: ContractOperation, status: string, profile: Profile, code: string | undefined): ResponseExpectation {
  const key = `${op.family}/${op.operationId}/${status}/${profile}/${code ?? ""}`;
  let found = expectations.get(key);
  if (!found) expectations.set(key, (found = responseExpectation(op, status, profile, { code })));
  return found;
}

const show = (value: unknown) => (value === undefined ? "(absent)" : quoted(value, 300));

/** The subschema an ajv error's schemaPath points at (`#/properties/data/not`). */
function schemaAt(schema: unknown, schemaPath: string): unknown {
  let node = schema;
  for (const raw of schemaPath.replace(/^#/, "").split("/").slice(1)) {
    const key = decodeURIComponent(raw.replace(/~1/g, "/").replace(/~0/g, "~"));
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return undefined;
  }
  return node;
}

/** ajv errors as findings: the member's dotted path (indexes dropped), what was expected, what was seen. */
export function schemaFindings(errors: ErrorObject[] | null | undefined, value: unknown, place: "body" | "request-body", schema?: unknown): Finding[] {
  const findings: Finding[] = [];
  for (const error of errors ?? []) {
    // A failed oneOf/anyOf repeats its members' errors: those say more.
    if (error.keyword === "if") continue;
    const segments = error.instancePath.split("/").slice(1).filter((s) => !/^\d+$/.test(s));
    const missing = error.keyword === "required" ? String((error.params as { missingProperty?: string }).missingProperty) : undefined;
    if (missing) segments.push(missing);
    const path = segments.join(".");
    const seenValue = missing ? undefined : valueAtInstancePath(value, error.instancePath);
    let expected = `${error.message ?? error.keyword}`;
    const format = (error.params as { format?: string }).format;
    const excluded = error.keyword === "not" ? schemaAt(schema, error.schemaPath) : undefined;
    if (isObject(excluded) && Array.isArray(excluded.required)) {
      // `not: {required: [...]}`: members the contract says the value does not carry.
      const members = excluded.required.map(String);
      findings.push({ place, path: [...segments, members[0]].join("."), keyword: "not", expected: `${path || "body"} without ${members.join(", ")}`, seen: `${members.filter((m) => isObject(seenValue) && m in seenValue).join(", ")} present` });
      continue;
    }
    const reason = domainFormatReason(error, value);
    if (reason !== undefined) expected = `a valid ${format}: ${reason}`;
    findings.push({ place, path: path || "(root)", keyword: error.keyword, expected: `${path || "body"} ${expected}`, seen: show(seenValue) });
  }
  return findings;
}

export interface ResponseVerdict {
  /** The documented status key the response fell under (undefined: none). */
  documented?: string;
  expectation?: ResponseExpectation;
  errorCode?: string;
  response?: ContractResponse;
  findings: Finding[];
  /** The response body was not validated (too large, or no body to read). */
  notValidated?: string;
}

/** The documented response a status falls under; under seed, a decided status admits its class. */
function documentedFor(op: ContractOperation, status: number, profile: Profile): ContractResponse | undefined {
  const direct = responseFor(op, status);
  if (direct) return direct;
  if (profile !== "seed") return undefined;
  return op.responses.find((r) => r.decided?.aspects.includes("status") && /^\d+$/.test(r.status) && r.status[0] === String(status)[0]);
}

/** What the server answered, against the operation's documented responses. */
export function checkResponse(op: OperationMatch, exchange: TrafficExchange, profile: Profile, catalogue: Catalogue, route: FamilyRoute): ResponseVerdict {
  const response = documentedFor(op, exchange.status, profile);
  if (!response) {
    const documented = op.responses.map((r) => r.status).join(", ");
    return { findings: [{ place: "status", expected: `a documented status (${documented})`, seen: String(exchange.status) }] };
  }
  const parsed = parsedBody(exchange, "response");
  const errorCode = parsed?.ok ? errorCodeOf(parsed.value) : undefined;
  const expectation = expectationOf(op, response.status, profile, errorCode);
  const findings: Finding[] = [];
  if (/^\d+$/.test(response.status) && !statusAccepted(expectation.statusRule, exchange.status)) {
    findings.push({ place: "status", expected: describeStatusRule(expectation.statusRule), seen: String(exchange.status) });
  }
  for (const header of expectation.headers) {
    const raw = exchange.responseHeaders[header.name.toLowerCase()];
    if (raw === undefined) {
      if (header.required) findings.push({ place: "header", path: header.name, keyword: "required", expected: `header ${header.name} (required)`, seen: "(absent)" });
      continue;
    }
    const validate = compileJsonSchema(header.schema, "3.0");
    const value = headerValue(raw, header.schema);
    if (!validate(value)) findings.push({ place: "header", path: header.name, keyword: validate.errors?.[0]?.keyword, expected: `header ${header.name} ${validate.errors?.[0]?.message ?? "valid"}`, seen: show(raw) });
  }
  const verdict: ResponseVerdict = { documented: response.status, expectation, errorCode, response, findings };
  if (!expectation.mediaType) return verdict;
  if (exchange.responseBodyTooLarge) return { ...verdict, notValidated: "too large" };
  if (exchange.responseBodyNotRecorded) return { ...verdict, notValidated: "not recorded" };
  const body = exchange.responseBody ?? "";
  if (!expectation.bodySchema && body.length === 0) return verdict;
  const contentType = exchange.responseHeaders["content-type"];
  if (!mediaTypeAccepted(expectation.mediaType, contentType)) {
    findings.push({ place: "content-type", expected: expectation.mediaType.anyJson ? `a JSON media type (contract: ${expectation.mediaType.documented})` : expectation.mediaType.documented, seen: contentType ?? "(none)" });
  }
  if (!parsed?.ok) {
    if (expectation.bodySchema) findings.push({ place: "body", path: "(root)", expected: "a JSON body", seen: show(shortened(body, 80)) });
    return verdict;
  }
  if (expectation.bodySchema) {
    const validate = compileJsonSchema(expectation.bodySchema, "3.0");
    if (!validate(parsed.value)) findings.push(...schemaFindings(validate.errors, parsed.value, "body", expectation.bodySchema));
  }
  // What the catalogue states holds even where the body's shape is a decision the profile leaves out.
  findings.push(...statedMemberFindings(catalogue, { family: route.family, contract: route.contract, operationId: op.operationId, status: response.status }, parsed.value));
  if (exchange.status >= 200 && exchange.status < 300) {
    for (const member of absentOf(catalogue, route, op.operationId, response.status)) {
      // The schema's `not` may have said it already.
      if (valuesAt(parsed.value, member.path).length > 0 && !findings.some((f) => f.place === "body" && f.path === member.path)) {
        findings.push({ place: "body", path: member.path, expected: `no ${member.path} (the document says this response does not carry it)`, seen: "present", statement: member.statement });
      }
    }
  }
  return verdict;
}

const requestSchemas = new Map<string, JsonSchema>();
const parameterSchemas = new Map<string, JsonSchema>();
const profiledRequests = new Map<string, unknown>();

/** The request body schema under the profile, still in OpenAPI form (for its member lists). */
function profiledRequestSchema(op: ContractOperation, profile: Profile): unknown {
  const key = `${op.family}/${op.operationId}/${profile}`;
  if (!profiledRequests.has(key)) profiledRequests.set(key, profileSchema(op.requestBody!.schema, profile));
  return profiledRequests.get(key);
}

/** A parameter's schema under the profile, converted once (validators are cached per schema object). */
function parameterSchema(op: ContractOperation, parameter: ContractParameter, profile: Profile): JsonSchema {
  const key = `${op.family}/${op.operationId}/${parameter.in}/${parameter.name}/${profile}`;
  let found = parameterSchemas.get(key);
  if (!found) parameterSchemas.set(key, (found = toJsonSchema(profileSchema(parameter.schema, profile), "3.0")));
  return found;
}

function requestBodySchema(op: ContractOperation, profile: Profile): JsonSchema | undefined {
  if (!op.requestBody) return undefined;
  const key = `${op.family}/${op.operationId}/${profile}`;
  let found = requestSchemas.get(key);
  if (!found) requestSchemas.set(key, (found = toJsonSchema(profileSchema(op.requestBody.schema, profile), "3.0")));
  return found;
}

/** Members of a body that the operation's schema does not define (where the schema lists members). */
function unknownMembers(schema: unknown, value: unknown, path: string): string[] {
  if (Array.isArray(value)) {
    const items = isObject(schema) && isObject(schema.items) ? schema.items : undefined;
    return items ? value.flatMap((item) => unknownMembers(items, item, path)) : [];
  }
  const view = objectView(schema);
  if (!view || !isObject(value)) return [];
  if (isObject(schema) && isObject(schema.additionalProperties)) return [];
  return Object.entries(value).flatMap(([name, member]) => {
    const where = path ? `${path}.${name}` : name;
    return name in view.properties ? unknownMembers(view.properties[name], member, where) : [where];
  });
}

const NO_QUERY = new URLSearchParams();

/** What the client sent, against the operation (null op: a path or method the contract does not define). */
export function checkRequest(op: OperationMatch | null, exchange: TrafficExchange, profile: Profile, route: FamilyRoute, path: string): Finding[] {
  if (!op) {
    const allowed = route.index.allowedMethods(path);
    return [
      allowed.length > 0
        ? { place: "path", expected: `one of ${allowed.join(", ")} on ${path}`, seen: exchange.method }
        : { place: "path", expected: `a path the ${route.family} contract defines`, seen: `${exchange.method} ${path}` },
    ];
  }
  const findings: Finding[] = [];
  // Most requests carry no query: the URL is parsed only for one that does.
  const query = exchange.url.includes("?") ? new URL(exchange.url).searchParams : NO_QUERY;
  for (const name of new Set(query.keys())) {
    const parameter = op.parameters.find((p) => p.in === "query" && p.name === name);
    if (!parameter) {
      findings.push({ place: "parameter", path: name, expected: `only the query parameters the operation defines (${op.parameters.filter((p) => p.in === "query").map((p) => p.name).join(", ") || "none"})`, seen: `${name}=${query.get(name)}` });
      continue;
    }
    const schema = parameterSchema(op, parameter, profile);
    const validate = compileJsonSchema(schema, "3.0");
    const raw = query.get(name)!;
    if (!validate(headerValue(raw, schema))) findings.push({ place: "parameter", path: name, keyword: validate.errors?.[0]?.keyword, expected: `query ${name} ${validate.errors?.[0]?.message ?? "valid"}`, seen: show(raw) });
  }
  for (const parameter of op.parameters.filter((p) => p.in === "header")) {
    const sent = exchange.requestHeaders[parameter.name.toLowerCase()];
    if (sent === undefined) continue;
    const raw = headerText(sent); // lengths count the characters the client wrote (D45)
    const schema = parameterSchema(op, parameter, profile);
    const validate = compileJsonSchema(schema, "3.0");
    if (!validate(headerValue(raw, schema))) findings.push({ place: "parameter", path: parameter.name, keyword: validate.errors?.[0]?.keyword, expected: `header ${parameter.name} ${validate.errors?.[0]?.message ?? "valid"}`, seen: show(raw) });
  }
  for (const parameter of op.parameters) {
    if (!parameter.required || parameter.decision) continue;
    const present = parameter.in === "query" ? query.has(parameter.name) : parameter.in === "header" ? exchange.requestHeaders[parameter.name.toLowerCase()] !== undefined : true;
    if (!present) findings.push({ place: "parameter", path: parameter.name, keyword: "required", expected: `${parameter.in} ${parameter.name} (required)`, seen: "(absent)" });
  }
  const schema = requestBodySchema(op, profile);
  if (!schema || exchange.requestBodyTooLarge) return findings;
  const text = exchange.requestBody ?? "";
  if (text.length === 0) {
    if (op.requestBody?.required) findings.push({ place: "request-body", path: "(root)", keyword: "required", expected: "a request body", seen: "(none)" });
    return findings;
  }
  const parsed = parsedBody(exchange, "request")!;
  if (!parsed.ok) return [...findings, { place: "request-body", path: "(root)", expected: "a JSON body", seen: show(shortened(text, 80)) }];
  const validate = compileJsonSchema(schema, "3.0");
  if (!validate(parsed.value)) findings.push(...schemaFindings(validate.errors, parsed.value, "request-body", schema));
  for (const member of unknownMembers(profiledRequestSchema(op, profile), parsed.value, "")) {
    findings.push({ place: "request-body", path: member, keyword: "additionalProperties", expected: `only members the contract defines for ${op.operationId}`, seen: `${member} (unknown)` });
  }
  return findings;
}
