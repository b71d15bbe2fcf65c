/**
 * fast-check arbitraries of bad requests, derived from the contract: each starts from an
 * operation's example (request body, parameters) in the generated OpenAPI and breaks it in
 * one way the operation's schemas refuse: a required member removed, a member of the wrong
 * type, a value outside its bounds, pattern, enum or format, a body that is not an object,
 * not JSON, not UTF-8, too deep, too large or of another media type, a bad path id, bad
 * query parameters, a bad idempotency key header, or a method the path does not have.
 */
import fc from "fast-check";
import type { ValidateFunction } from "ajv";
import { compileOpenApiSchema } from "@payment-collection/contract/model/json-schema.ts";
import { listOperations, loadContractDocuments, type ContractOperation } from "@payment-collection/contract/model/index.ts";

type Json = Record<string, unknown>;

export interface BadRequest {
  kind: string;
  operationId: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

interface OperationFacts {
  op: ContractOperation;
  example?: Json;
  bodySchema?: Json;
  validateBody?: ValidateFunction;
  pathParams: Record<string, string>;
  headerParams: Array<{ name: string; schema: Json; example?: string }>;
  queryParams: Array<{ name: string; schema: Json }>;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function contractOperations(): OperationFacts[] {
  return listOperations(loadContractDocuments()).map((op) => {
    const parameters = (op.operation.parameters ?? []) as Json[];
    const media = ((op.operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.["application/json"];
    const pathParams: Record<string, string> = {};
    for (const p of parameters.filter((p) => p.in === "path")) pathParams[String(p.name)] = String(p.example ?? "x");
    return {
      op,
      example: isObject(media?.example) ? (media.example as Json) : undefined,
      bodySchema: media?.schema as Json | undefined,
      validateBody: media?.schema ? compileOpenApiSchema(media.schema, "3.1") : undefined,
      pathParams,
      headerParams: parameters
        .filter((p) => p.in === "header")
        .map((p) => ({ name: String(p.name), schema: (p.schema ?? {}) as Json, example: p.example as string | undefined })),
      queryParams: parameters.filter((p) => p.in === "query").map((p) => ({ name: String(p.name), schema: (p.schema ?? {}) as Json })),
    };
  });
}

function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? "x"));
}

/** Headers every request of the operation needs besides the body (a fresh idempotency key). */
function baseHeaders(facts: OperationFacts, keys: { a: string; b: string }, unique: string): Record<string, string> {
  const headers: Record<string, string> = { "x-api-key": facts.op.service === "family-a" ? keys.a : keys.b };
  for (const h of facts.headerParams) {
    if (/idempotency-key$/i.test(h.name)) headers[h.name] = `bad-input-${unique}`;
  }
  return headers;
}

/** Members of a schema (one level, and one level into object members) with their schemas. */
function members(schema: Json | undefined, prefix: string[] = [], depth = 0): Array<{ path: string[]; schema: Json; required: boolean }> {
  if (!schema || !isObject(schema.properties)) return [];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const found: Array<{ path: string[]; schema: Json; required: boolean }> = [];
  for (const [name, sub] of Object.entries(schema.properties as Record<string, Json>)) {
    const flat = Array.isArray(sub.allOf) && sub.allOf.length === 1 ? { ...(sub.allOf[0] as Json), ...sub } : sub;
    found.push({ path: [...prefix, name], schema: flat, required: required.has(name) });
    if (depth === 0) found.push(...members(flat, [...prefix, name], 1));
  }
  return found;
}

function setAt(target: Json, path: string[], value: unknown): Json {
  const copy = structuredClone(target);
  let cursor: Json = copy;
  for (const segment of path.slice(0, -1)) {
    if (!isObject(cursor[segment])) cursor[segment] = {};
    cursor = cursor[segment] as Json;
  }
  if (value === REMOVE) delete cursor[path[path.length - 1]];
  else cursor[path[path.length - 1]] = value;
  return copy;
}

const REMOVE = Symbol("remove");

/** Values that break one member's schema: bounds, lengths, patterns, enums, formats. */
function boundaryBreakers(schema: Json): unknown[] {
  const values: unknown[] = [];
  if (typeof schema.minimum === "number") values.push(schema.minimum - (schema.type === "integer" ? 1 : 0.001), -1e308);
  if (typeof schema.maximum === "number") values.push(schema.maximum + 1, 1e308);
  if (typeof schema.maxLength === "number") values.push("x".repeat(schema.maxLength + 1));
  if (typeof schema.minLength === "number" && schema.minLength > 0) values.push("x".repeat(schema.minLength - 1));
  if (typeof schema.pattern === "string") values.push("§not matching§", "", " ");
  if (Array.isArray(schema.enum)) values.push("NOT_IN_ENUM", String(schema.enum[0]).toLowerCase() + "_", "");
  if (schema.const !== undefined) values.push(`${String(schema.const)}x`);
  if (typeof schema.format === "string") values.push("not-a-" + schema.format, "2026-13-45T99:99:99Z");
  if (schema.type === "integer") values.push(1.5, 2 ** 53 + 2);
  return values;
}

/** Any JSON value (and a few nasty ones) to put where a member of another type is expected. */
const anyValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.constantFrom("", " ", "0", "-1", "1e309", "null", "true", "<script>", "' OR 1=1 --", "\u0000", "\uD800", "%00", "../../etc/passwd"),
);

/** Path ids that are wrong in some way (all end up URL-encoded in one segment, or raw). */
// Dot segments are left out: clients normalise them away before sending (RFC 3986 5.2.4).
const notDotSegment = (s: string) => (s === "" || s === "." || s === ".." ? "x" : s);
const badId = fc.oneof(
  fc.string({ maxLength: 60 }).map((s) => encodeURIComponent(notDotSegment(s))),
  fc.string({ unit: "grapheme", maxLength: 30 }).map((s) => encodeURIComponent(notDotSegment(s))),
  fc.constantFrom("%E0%A4%A", "%", "%zz", "%2F", "null", "0", "-1", "1e10", "'%20OR%201=1--", "x".repeat(3000), "%00", "%F0%9F%98%80"),
);

function operationsWith(facts: OperationFacts[], predicate: (f: OperationFacts) => boolean) {
  return facts.filter(predicate);
}

let counter = 0;
const unique = () => `${process.pid}-${Date.now()}-${++counter}`;

/** Bodies whose one member breaks the schema (checked with the schema itself). */
export function schemaBodyMutations(facts: OperationFacts[], keys: { a: string; b: string }): fc.Arbitrary<BadRequest> {
  const candidates = operationsWith(facts, (f) => f.example !== undefined && members(f.bodySchema).length > 0);
  return fc
    .constantFrom(...candidates)
    .chain((f) =>
      fc.constantFrom(...members(f.bodySchema)).chain((member) => {
        const breakers = boundaryBreakers(member.schema);
        const value = fc.oneof(
          { weight: 3, arbitrary: anyValue },
          { weight: breakers.length > 0 ? 3 : 0, arbitrary: breakers.length > 0 ? fc.constantFrom(...breakers) : fc.constant(null) },
          { weight: member.required ? 2 : 0, arbitrary: fc.constant<unknown>(REMOVE) },
        );
        return value.map((v) => ({ f, body: setAt(f.example!, member.path, v), member: member.path.join(".") }));
      }),
    )
    .filter(({ f, body }) => !f.validateBody!(body))
    .map(({ f, body, member }) => ({
      kind: `body member ${member}`,
      operationId: f.op.operationId,
      method: f.op.method,
      path: fillPath(f.op.pathTemplate, f.pathParams),
      headers: { ...baseHeaders(f, keys, unique()), "content-type": "application/json" },
      body: JSON.stringify(body),
    }));
}

/** Bodies that are not a JSON object of the right media type, size or depth. */
export function bodyShapeMutations(facts: OperationFacts[], keys: { a: string; b: string }): fc.Arbitrary<BadRequest> {
  const candidates = operationsWith(facts, (f) => f.bodySchema !== undefined);
  const shape = fc.oneof(
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }).filter((v) => !isObject(v)).map((v) => ({ kind: "not an object", body: JSON.stringify(v), type: "application/json" })) },
    { weight: 3, arbitrary: fc.string({ maxLength: 80 }).filter((s) => { try { JSON.parse(s); return false; } catch { return true; } }).map((s) => ({ kind: "not JSON", body: s, type: "application/json" })) },
    { weight: 1, arbitrary: fc.constant({ kind: "empty", body: "", type: "application/json" }) },
    { weight: 1, arbitrary: fc.integer({ min: 65, max: 400 }).map((n) => ({ kind: "too deep", body: "[".repeat(n) + "]".repeat(n), type: "application/json" })) },
    { weight: 1, arbitrary: fc.integer({ min: 65, max: 300 }).map((n) => ({ kind: "too deep object", body: '{"a":'.repeat(n) + "1" + "}".repeat(n), type: "application/json" })) },
    { weight: 1, arbitrary: fc.constant({ kind: "not UTF-8", body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) as string | Uint8Array<ArrayBuffer>, type: "application/json" }) },
    { weight: 2, arbitrary: fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "application/xml", "jsonx").map((type) => ({ kind: `media type ${type}`, body: '{"amount":1}', type })) },
  );
  return fc.tuple(fc.constantFrom(...candidates), shape).map(([f, s]) => ({
    kind: `body ${s.kind}`,
    operationId: f.op.operationId,
    method: f.op.method,
    path: fillPath(f.op.pathTemplate, f.pathParams),
    headers: { ...baseHeaders(f, keys, unique()), "content-type": s.type },
    body: s.body,
  }));
}

/** Bodies over the size limit (kept apart: each one is a megabyte on the wire). */
export function oversizedBodies(facts: OperationFacts[], keys: { a: string; b: string }): fc.Arbitrary<BadRequest> {
  const candidates = operationsWith(facts, (f) => f.bodySchema !== undefined);
  return fc.tuple(fc.constantFrom(...candidates), fc.integer({ min: 1_048_577, max: 1_600_000 })).map(([f, size]) => ({
    kind: "body too large",
    operationId: f.op.operationId,
    method: f.op.method,
    path: fillPath(f.op.pathTemplate, f.pathParams),
    headers: { ...baseHeaders(f, keys, unique()), "content-type": "application/json" },
    body: JSON.stringify({ ...f.example, padding: "x".repeat(size) }),
  }));
}

/**
 * Bodies under the size limit whose structure is too large: an array longer than the sandbox
 * accepts, objects nested deeper, or too many values in all (each refused before parsing).
 */
export function structurallyLargeBodies(facts: OperationFacts[], keys: { a: string; b: string }): fc.Arbitrary<BadRequest> {
  const candidates = operationsWith(facts, (f) => f.bodySchema !== undefined);
  const padding = fc.oneof(
    fc.integer({ min: 1_001, max: 200_000 }).map((n) => `[${"0,".repeat(n - 1)}0]`),
    fc.integer({ min: 65, max: 5_000 }).map((n) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`),
    fc.integer({ min: 65, max: 5_000 }).map((n) => `${"[".repeat(n)}${"]".repeat(n)}`),
    fc.integer({ min: 400, max: 20_000 }).map((n) => `[${Array.from({ length: n }, () => '{"k":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25]}').join(",")}]`),
  );
  return fc.tuple(fc.constantFrom(...candidates), padding).map(([f, pad]) => {
    const example = JSON.stringify(f.example ?? {});
    return {
      kind: "structure too large",
      operationId: f.op.operationId,
      method: f.op.method,
      path: fillPath(f.op.pathTemplate, f.pathParams),
      headers: { ...baseHeaders(f, keys, unique()), "content-type": "application/json" },
      body: example === "{}" ? `{"padding":${pad}}` : `${example.slice(0, -1)},"padding":${pad}}`,
    };
  });
}

/** Path parameters that name nothing, or are malformed. */
export function pathMutations(facts: OperationFacts[], keys: { a: string; b: string }): fc.Arbitrary<BadRequest> {
  const candidates = operationsWith(facts, (f) => Object.keys(f.pathParams).length > 0);
  return fc.tuple(fc.constantFrom(...candidates), badId).map(([f, id]) => ({
    kind: "path id",
    operationId: f.op.operationId,
    method: f.op.method,
    path: f.op.pathTemplate.replace(/\{[^}]+\}/g, id),
    headers: { ...baseHeaders(f, keys, unique()), ...(f.example ? { "content-type": "application/json" } : {}) },
    body: f.example ? JSON.stringify(f.example) : undefined,
  }));
}

/** Query parameters of the wrong type, out of range, repeated or malformed. */
export function queryMutations(facts: OperationFacts[], keys: { a: string; b: string }): fc.Arbitrary<BadRequest> {
  const candidates = operationsWith(facts, (f) => f.queryParams.length > 0);
  return fc
    .constantFrom(...candidates)
    .chain((f) =>
      fc.constantFrom(...f.queryParams).chain((param) => {
        const breakers = boundaryBreakers(param.schema).map((v) => String(v));
        const value = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("", "-1", "0", "1.5", "1e3", "99999999999999999999", "true", ...breakers));
        return fc.tuple(fc.constant(f), fc.constant(param), value, fc.boolean());
      }),
    )
    .filter(([, param, value]) => !compileOpenApiSchemaCached(param.schema)(coerce(value, param.schema)))
    .map(([f, param, value, repeat]) => ({
      kind: `query ${param.name}`,
      operationId: f.op.operationId,
      method: f.op.method,
      path: `${f.op.pathTemplate}?${repeat ? `${param.name}=1&` : ""}${param.name}=${encodeURIComponent(value)}`,
      headers: baseHeaders(f, keys, unique()),
    }));
}

const compiledQuery = new Map<Json, ValidateFunction>();
function compileOpenApiSchemaCached(schema: Json): ValidateFunction {
  let validate = compiledQuery.get(schema);
  if (!validate) compiledQuery.set(schema, (validate = compileOpenApiSchema(schema, "3.1")));
  return validate;
}

/** The text of a query value as the schema would type it (as a server must parse it). */
function coerce(value: string, schema: Json): unknown {
  if ((schema.type === "integer" || schema.type === "number") && /^[+-]?\d{1,15}$/.test(value)) return Number(value);
  return value;
}

/** Idempotency key headers of a refused length. */
export function headerMutations(facts: OperationFacts[], keys: { a: string; b: string }): fc.Arbitrary<BadRequest> {
  const candidates = operationsWith(facts, (f) => f.headerParams.some((h) => /idempotency-key$/i.test(h.name)) && f.example !== undefined);
  const badKey = fc.oneof(fc.string({ maxLength: 7 }).map((s) => s.replace(/[^\x21-\x7e]/g, "k")), fc.integer({ min: 256, max: 2000 }).map((n) => "k".repeat(n)));
  return fc.tuple(fc.constantFrom(...candidates), badKey).map(([f, key]) => {
    const name = f.headerParams.find((h) => /idempotency-key$/i.test(h.name))!.name;
    return {
      kind: `header ${name}`,
      operationId: f.op.operationId,
      method: f.op.method,
      path: fillPath(f.op.pathTemplate, f.pathParams),
      headers: { ...baseHeaders(f, keys, unique()), [name]: key, "content-type": "application/json" },
      body: JSON.stringify(f.example),
    };
  });
}

/** Methods a documented path does not have. */
export function methodMutations(facts: OperationFacts[], keys: { a: string; b: string }): fc.Arbitrary<BadRequest> {
  const methodsByPath = new Map<string, Set<string>>();
  for (const f of facts) {
    const set = methodsByPath.get(f.op.pathTemplate) ?? new Set<string>();
    set.add(f.op.method);
    methodsByPath.set(f.op.pathTemplate, set);
  }
  const wrong = facts.flatMap((f) =>
    ["GET", "POST", "PUT", "DELETE", "PATCH"].filter((m) => !methodsByPath.get(f.op.pathTemplate)!.has(m)).map((method) => ({ f, method })),
  );
  return fc.constantFrom(...wrong).map(({ f, method }) => ({
    kind: "method",
    operationId: f.op.operationId,
    method,
    path: fillPath(f.op.pathTemplate, f.pathParams),
    headers: { ...baseHeaders(f, keys, unique()), "content-type": "application/json" },
    body: method === "GET" ? undefined : JSON.stringify(f.example ?? {}),
  }));
}
