/**
 * The corpus of issue #18: the real generated family documents, one crafted mutation each,
 * with the rule expected to fire and the expected overall verdict of the diff (the worst
 * verdict among all changes the mutation causes). Table-driven: one row per case, named after
 * the rule and the verdict.
 */
import { describe, expect, it } from "vitest";
import { diffDocuments, diffFamilies, RULE_LIST, RULES_BY_ID, type Change, type Verdict } from "../../src/diff/index.ts";
import { generated, type Doc } from "./support.ts";

type Family = "family-a" | "family-b";
interface Case {
  family: Family;
  rule: string;
  verdict: Verdict;
  what: string;
  mutate?: (doc: Doc) => void;
  /** Mutation of the base instead (for "became optional" style cases the document has no base for). */
  mutateBase?: (doc: Doc) => void;
}

const A: Family = "family-a";
const B: Family = "family-b";
const S = (doc: Doc, name: string): Doc => doc.components.schemas[name];
const charges = (doc: Doc): Doc => doc.paths["/v1/charges"].post;
const merchant = (doc: Doc): Doc => doc.paths["/v1/merchant"].get;
const drop = (list: string[], value: string): string[] => list.filter((v) => v !== value);

const CASES: Case[] = [
  // operations
  { family: A, rule: "api-path-removed", verdict: "breaking", what: "GET /v1/merchant removed", mutate: (d) => delete d.paths["/v1/merchant"] },
  { family: B, rule: "api-removed", verdict: "breaking", what: "PUT customer removed, GET kept", mutate: (d) => delete d.paths["/api/v1/sdk/customers/{id}"].put },
  { family: A, rule: "api-path-renamed", verdict: "breaking", what: "/v1/charges renamed /v1/payments", mutate: (d) => { d.paths["/v1/payments"] = d.paths["/v1/charges"]; delete d.paths["/v1/charges"]; } },
  { family: A, rule: "api-path-added", verdict: "compatible", what: "new endpoint GET /v1/balance", mutate: (d) => { d.paths["/v1/balance"] = { get: { ...structuredClone(merchant(d)), operationId: "getBalance" } }; } },
  { family: B, rule: "api-added", verdict: "compatible", what: "new PATCH on the customer path", mutate: (d) => { const item = d.paths["/api/v1/sdk/customers/{id}"]; item.patch = { ...structuredClone(item.put), operationId: "patchCustomer" }; } },
  { family: A, rule: "webhook-removed", verdict: "breaking", what: "charge.paid no longer sent", mutate: (d) => delete d.webhooks["charge.paid"] },
  { family: A, rule: "webhook-added", verdict: "compatible", what: "new charge.expired event", mutate: (d) => { d.webhooks["charge.expired"] = structuredClone(d.webhooks["charge.paid"]); d.webhooks["charge.expired"].post.operationId = "chargeExpired"; } },
  { family: A, rule: "api-operation-id-changed", verdict: "informational", what: "createCharge -> postCharge", mutate: (d) => { charges(d).operationId = "postCharge"; } },
  { family: B, rule: "api-deprecated", verdict: "informational", what: "health check deprecated", mutate: (d) => { d.paths["/sdk/status/health"].get.deprecated = true; } },
  { family: B, rule: "api-undeprecated", verdict: "informational", what: "health check no longer deprecated", mutateBase: (d) => { d.paths["/sdk/status/health"].get.deprecated = true; } },
  { family: A, rule: "api-documentation-changed", verdict: "informational", what: "summary reworded", mutate: (d) => { charges(d).summary = "Create a PIX charge"; } },
  // document
  { family: A, rule: "info-version-changed", verdict: "informational", what: "info.version 1.1.0", mutate: (d) => { d.info.version = "1.1.0"; } },
  { family: A, rule: "path-version-added", verdict: "compatible", what: "a /v2 charges endpoint beside /v1", mutate: (d) => { d.paths["/v2/charges"] = { post: { ...structuredClone(charges(d)), operationId: "createChargeV2" } }; } },
  // parameters
  { family: B, rule: "new-required-request-parameter", verdict: "breaking", what: "required query `account` on GET /transactions", mutate: (d) => d.paths["/transactions"].get.parameters.push({ name: "account", in: "query", required: true, schema: { type: "string" } }) },
  { family: B, rule: "new-optional-request-parameter", verdict: "compatible", what: "optional query `sort` on GET /transactions", mutate: (d) => d.paths["/transactions"].get.parameters.push({ name: "sort", in: "query", required: false, schema: { type: "string" } }) },
  { family: A, rule: "request-parameter-removed", verdict: "breaking", what: "Idempotency-Key header no longer read", mutate: (d) => { charges(d).parameters = []; } },
  { family: B, rule: "request-parameter-became-required", verdict: "breaking", what: "`page` required", mutate: (d) => { d.paths["/transactions"].get.parameters.find((p: Doc) => p.name === "page").required = true; } },
  { family: A, rule: "request-parameter-became-optional", verdict: "compatible", what: "Idempotency-Key optional", mutate: (d) => { d.components.parameters.IdempotencyKeyHeader.required = false; } },
  // request body
  { family: A, rule: "request-body-added-required", verdict: "breaking", what: "GET /v1/merchant now needs a body", mutate: (d) => { merchant(d).requestBody = { required: true, content: { "application/json": { schema: { type: "object" } } } }; } },
  { family: A, rule: "request-body-added-optional", verdict: "compatible", what: "GET /v1/merchant takes an optional body", mutate: (d) => { merchant(d).requestBody = { required: false, content: { "application/json": { schema: { type: "object" } } } }; } },
  { family: B, rule: "request-body-removed", verdict: "breaking", what: "POST /pix body gone", mutate: (d) => delete d.paths["/pix"].post.requestBody },
  { family: A, rule: "request-body-became-required", verdict: "breaking", what: "charge body required again", mutateBase: (d) => { charges(d).requestBody.required = false; } },
  { family: A, rule: "request-body-became-optional", verdict: "compatible", what: "charge body optional", mutate: (d) => { charges(d).requestBody.required = false; } },
  { family: A, rule: "request-media-type-removed", verdict: "breaking", what: "charge body JSON -> XML", mutate: (d) => { const c = charges(d).requestBody.content; c["application/xml"] = c["application/json"]; delete c["application/json"]; } },
  { family: A, rule: "request-media-type-added", verdict: "compatible", what: "charge body also as form", mutate: (d) => { const c = charges(d).requestBody.content; c["application/x-www-form-urlencoded"] = structuredClone(c["application/json"]); } },
  // responses
  { family: A, rule: "response-status-removed", verdict: "breaking", what: "charge creation 201 -> 200", mutate: (d) => { const r = charges(d).responses; r["200"] = r["201"]; delete r["201"]; } },
  { family: A, rule: "response-status-added", verdict: "compatible", what: "503 documented on GET /v1/merchant", mutate: (d) => { merchant(d).responses["503"] = { description: "Unavailable." }; } },
  { family: A, rule: "response-media-type-removed", verdict: "breaking", what: "charge response JSON -> vendor type", mutate: (d) => { const c = charges(d).responses["201"].content; c["application/vnd.charge+json"] = c["application/json"]; delete c["application/json"]; } },
  { family: A, rule: "response-media-type-added", verdict: "compatible", what: "charge response also as XML", mutate: (d) => { const c = charges(d).responses["201"].content; c["application/xml"] = structuredClone(c["application/json"]); } },
  { family: A, rule: "response-header-removed", verdict: "breaking", what: "X-RateLimit-Limit no longer sent on 201", mutate: (d) => delete charges(d).responses["201"].headers["X-RateLimit-Limit"] },
  { family: A, rule: "response-header-added", verdict: "compatible", what: "Location header on 201", mutate: (d) => { charges(d).responses["201"].headers.Location = { required: false, schema: { type: "string" } }; } },
  { family: A, rule: "response-header-became-optional", verdict: "breaking", what: "Idempotent-Replayed was always sent", mutateBase: (d) => { charges(d).responses["201"].headers["Idempotent-Replayed"].required = true; } },
  { family: A, rule: "response-header-became-required", verdict: "compatible", what: "Idempotent-Replayed always sent", mutate: (d) => { charges(d).responses["201"].headers["Idempotent-Replayed"].required = true; } },
  // schema properties
  { family: A, rule: "response-property-removed", verdict: "breaking", what: "Charge.reference removed", mutate: (d) => { delete S(d, "Charge").properties.reference; S(d, "Charge").required = drop(S(d, "Charge").required, "reference"); } },
  { family: A, rule: "response-property-added", verdict: "compatible", what: "optional Charge.note", mutate: (d) => { S(d, "Charge").properties.note = { type: "string" }; } },
  { family: A, rule: "response-property-became-optional", verdict: "breaking", what: "Charge.reference optional", mutate: (d) => { S(d, "Charge").required = drop(S(d, "Charge").required, "reference"); } },
  { family: A, rule: "response-property-became-required", verdict: "compatible", what: "Merchant.id always present", mutate: (d) => { S(d, "Merchant").required = ["id"]; } },
  { family: A, rule: "new-required-request-property", verdict: "breaking", what: "required ChargeCreateRequest.channel", mutate: (d) => { S(d, "ChargeCreateRequest").properties.channel = { type: "string" }; S(d, "ChargeCreateRequest").required.push("channel"); } },
  { family: A, rule: "new-optional-request-property", verdict: "compatible", what: "optional ChargeCreateRequest.channel", mutate: (d) => { S(d, "ChargeCreateRequest").properties.channel = { type: "string" }; } },
  { family: A, rule: "request-property-removed", verdict: "breaking", what: "ChargeCreateRequest.expires_in removed", mutate: (d) => delete S(d, "ChargeCreateRequest").properties.expires_in },
  { family: A, rule: "request-property-became-required", verdict: "breaking", what: "reference required", mutate: (d) => S(d, "ChargeCreateRequest").required.push("reference") },
  { family: A, rule: "request-property-became-optional", verdict: "compatible", what: "method optional", mutate: (d) => { S(d, "ChargeCreateRequest").required = ["amount"]; } },
  // schema types
  { family: B, rule: "request-type-narrowed", verdict: "breaking", what: "PIX amount number -> integer", mutate: (d) => { S(d, "PixChargeCreateRequest").properties.amount.type = "integer"; } },
  { family: A, rule: "request-type-widened", verdict: "compatible", what: "charge amount integer -> number", mutate: (d) => { S(d, "ChargeCreateRequest").properties.amount.type = "number"; } },
  { family: A, rule: "response-type-widened", verdict: "breaking", what: "Charge.amount integer -> string", mutate: (d) => { S(d, "Charge").properties.amount = { type: "string" }; } },
  { family: B, rule: "response-type-narrowed", verdict: "compatible", what: "PixCharge.amount number -> integer", mutate: (d) => { S(d, "PixCharge").properties.amount.type = "integer"; } },
  { family: B, rule: "request-property-became-not-nullable", verdict: "breaking", what: "customer update notes no longer nullable", mutate: (d) => { S(d, "CustomerUpdateRequest").properties.notes = { type: "string" }; } },
  { family: A, rule: "request-property-became-nullable", verdict: "compatible", what: "charge reference may be null", mutate: (d) => { S(d, "ChargeCreateRequest").properties.reference.type = ["string", "null"]; } },
  { family: A, rule: "response-property-became-nullable", verdict: "breaking", what: "Charge.id may be null", mutate: (d) => { S(d, "Charge").properties.id.type = ["string", "null"]; } },
  { family: A, rule: "response-property-became-not-nullable", verdict: "compatible", what: "Charge.reference never null", mutate: (d) => { S(d, "Charge").properties.reference = { type: "string" }; } },
  { family: A, rule: "request-format-narrowed", verdict: "breaking", what: "reference must be a uuid", mutate: (d) => { S(d, "ChargeCreateRequest").properties.reference.format = "uuid"; } },
  { family: A, rule: "request-format-widened", verdict: "compatible", what: "expires_in int32 -> int64", mutate: (d) => { S(d, "ChargeCreateRequest").properties.expires_in.format = "int64"; } },
  { family: A, rule: "response-format-widened", verdict: "breaking", what: "Charge.amount int64 format dropped", mutate: (d) => delete S(d, "Charge").properties.amount.format },
  { family: A, rule: "response-format-narrowed", verdict: "compatible", what: "Charge.id now a uuid", mutate: (d) => { S(d, "Charge").properties.id.format = "uuid"; } },
  // schema constraints
  { family: A, rule: "request-pattern-narrowed", verdict: "breaking", what: "reference pattern added", mutate: (d) => { S(d, "ChargeCreateRequest").properties.reference.pattern = "^[a-z0-9-]+$"; } },
  { family: A, rule: "request-pattern-widened", verdict: "compatible", what: "webhook_url pattern dropped", mutate: (d) => delete S(d, "ChargeCreateRequest").properties.webhook_url.pattern },
  { family: B, rule: "response-pattern-widened", verdict: "breaking", what: "envelope 2 version no longer semver (Versioning 3)", mutate: (d) => delete S(d, "SemanticVersion").pattern },
  { family: A, rule: "response-pattern-narrowed", verdict: "compatible", what: "Charge.reference pattern ^[a-z0-9-]+$", mutate: (d) => { S(d, "Charge").properties.reference.pattern = "^[a-z0-9-]+$"; } },
  { family: B, rule: "request-bound-narrowed", verdict: "breaking", what: "cancel reason maxLength 200 -> 100", mutate: (d) => { S(d, "BoletoCancelRequest").properties.reason.maxLength = 100; } },
  { family: B, rule: "request-bound-widened", verdict: "compatible", what: "cancel reason maxLength 200 -> 500", mutate: (d) => { S(d, "BoletoCancelRequest").properties.reason.maxLength = 500; } },
  { family: A, rule: "response-bound-widened", verdict: "breaking", what: "X-RateLimit-Limit minimum dropped", mutate: (d) => delete charges(d).responses["201"].headers["X-RateLimit-Limit"].schema.minimum },
  { family: A, rule: "response-bound-narrowed", verdict: "compatible", what: "Charge.amount minimum 1", mutate: (d) => { S(d, "Charge").properties.amount.minimum = 1; } },
  { family: A, rule: "request-default-changed", verdict: "breaking", what: "expires_in default 86400 -> 3600", mutate: (d) => { S(d, "ChargeCreateRequest").properties.expires_in.default = 3600; } },
  { family: A, rule: "response-default-changed", verdict: "informational", what: "Charge.currency default BRL", mutate: (d) => { S(d, "Charge").properties.currency.default = "BRL"; } },
  // schema enums
  { family: A, rule: "request-enum-value-removed", verdict: "breaking", what: "method pix -> card", mutate: (d) => { S(d, "ChargeCreateRequest").properties.method.enum = ["card"]; } },
  { family: A, rule: "request-enum-value-added", verdict: "compatible", what: "method also boleto", mutate: (d) => S(d, "ChargeCreateRequest").properties.method.enum.push("boleto") },
  { family: A, rule: "request-enum-added", verdict: "breaking", what: "reference limited to two values", mutate: (d) => { S(d, "ChargeCreateRequest").properties.reference.enum = ["a", "b"]; } },
  { family: A, rule: "request-enum-removed", verdict: "compatible", what: "method any string", mutate: (d) => delete S(d, "ChargeCreateRequest").properties.method.enum },
  { family: A, rule: "response-enum-value-removed", verdict: "breaking", what: "ChargeStatus expired removed", mutate: (d) => { S(d, "ChargeStatus").enum = drop(S(d, "ChargeStatus").enum, "expired"); } },
  { family: A, rule: "response-enum-value-added", verdict: "breaking", what: "ChargeStatus refunded added (clients that switch)", mutate: (d) => S(d, "ChargeStatus").enum.push("refunded") },
  { family: A, rule: "response-enum-added", verdict: "compatible", what: "Merchant.name limited to a closed set", mutate: (d) => { S(d, "Merchant").properties.name.enum = ["Loja"]; } },
  { family: A, rule: "response-enum-removed", verdict: "breaking", what: "Charge.currency any string", mutate: (d) => delete S(d, "Charge").properties.currency.enum },
  // schema variants
  { family: A, rule: "response-variant-added", verdict: "breaking", what: "Charge.payer may also be a string", mutate: (d) => S(d, "Charge").properties.payer.anyOf.push({ type: "string" }) },
  { family: A, rule: "response-variant-removed", verdict: "compatible", what: "Charge.reference string|integer|boolean -> string|integer", mutateBase: (d) => S(d, "Charge").properties.reference.anyOf.push({ type: "integer" }, { type: "boolean" }), mutate: (d) => S(d, "Charge").properties.reference.anyOf.push({ type: "integer" }) },
  { family: A, rule: "request-variant-removed", verdict: "breaking", what: "reference string|integer -> string", mutateBase: (d) => { const r = S(d, "ChargeCreateRequest").properties.reference; S(d, "ChargeCreateRequest").properties.reference = { anyOf: [r, { type: "integer" }, { type: "boolean" }] }; }, mutate: (d) => { const r = S(d, "ChargeCreateRequest").properties.reference; S(d, "ChargeCreateRequest").properties.reference = { anyOf: [r, { type: "integer" }] }; } },
  { family: A, rule: "request-variant-added", verdict: "compatible", what: "reference string|integer -> string|integer|boolean", mutateBase: (d) => { const r = S(d, "ChargeCreateRequest").properties.reference; S(d, "ChargeCreateRequest").properties.reference = { anyOf: [r, { type: "integer" }] }; }, mutate: (d) => { const r = S(d, "ChargeCreateRequest").properties.reference; S(d, "ChargeCreateRequest").properties.reference = { anyOf: [r, { type: "integer" }, { type: "boolean" }] }; } },
  // errors
  { family: A, rule: "response-error-code-removed", verdict: "breaking", what: "VALIDATION_ERROR no longer a 400 code", mutate: (d) => { S(d, "ChargeCreateBadRequestProblem").properties.code.enum = ["IDEMPOTENCY_KEY_REQUIRED"]; } },
  { family: A, rule: "response-error-code-added", verdict: "compatible", what: "new 400 code AMOUNT_TOO_LARGE", mutate: (d) => S(d, "ChargeCreateBadRequestProblem").properties.code.enum.push("AMOUNT_TOO_LARGE") },
  { family: B, rule: "response-error-code-changed", verdict: "breaking", what: "OCD001 -> OCD404 on customer not found", mutate: (d) => { S(d, "CustomerNotFoundError").properties.error.properties.errorCode.enum = ["OCD404"]; } },
  // security
  { family: A, rule: "api-security-requirement-removed", verdict: "breaking", what: "API key replaced by OAuth", mutate: (d) => { d.components.securitySchemes.OAuth = { type: "oauth2", flows: {} }; d.security = [{ OAuth: [] }]; } },
  { family: A, rule: "api-security-requirement-added", verdict: "compatible", what: "anonymous calls also accepted", mutate: (d) => d.security.push({}) },
  { family: A, rule: "api-scope-added", verdict: "breaking", what: "GET /v1/merchant also needs merchant:write", mutate: (d) => merchant(d)["x-required-scopes"].push("merchant:write") },
  { family: A, rule: "api-scope-removed", verdict: "compatible", what: "GET /v1/merchant needs no scope", mutate: (d) => delete merchant(d)["x-required-scopes"] },
  { family: B, rule: "security-scheme-changed", verdict: "breaking", what: "key moves to the Authorization header", mutate: (d) => { d.components.securitySchemes.SdkApiKey.name = "Authorization"; } },
  { family: B, rule: "security-scheme-added", verdict: "compatible", what: "a bearer scheme declared", mutate: (d) => { d.components.securitySchemes.Bearer = { type: "http", scheme: "bearer" }; } },
];

const RANK: Record<Verdict, number> = { informational: 0, compatible: 1, breaking: 2 };
const worst = (changes: readonly Change[]): Verdict | "none" => (changes.length === 0 ? "none" : changes.reduce<Verdict>((w, c) => (RANK[c.verdict] > RANK[w] ? c.verdict : w), "informational"));

describe("contract diff corpus: one mutation of a real generated document per case", () => {
  it.each(CASES.map((c) => [`${c.rule} -> ${c.verdict}: ${c.what}`, c] as const))("%s", (_name, c) => {
    const base = generated(c.family);
    const head = generated(c.family);
    c.mutateBase?.(base);
    c.mutate?.(head);
    const changes = diffDocuments(base, head, { family: c.family });
    const hit = changes.find((change) => change.rule === c.rule);
    expect(hit, `no ${c.rule} among ${changes.map((x) => x.rule).join(", ")}`).toBeDefined();
    expect(hit!.verdict).toBe(RULES_BY_ID.get(c.rule)!.verdict);
    expect(hit!.family).toBe(c.family);
    expect(hit!.pointer).toMatch(/^\/|^$/);
    expect(hit!.message).not.toContain("\n");
    expect(worst(changes)).toBe(c.verdict);
  });

  it("family-removed -> breaking and family-added -> compatible (whole documents)", () => {
    const a = generated("family-a");
    const b = generated("family-b");
    const removed = diffFamilies(new Map([["family-a", a], ["family-b", b]]), new Map([["family-a", a], ["family-b", undefined]]));
    expect(removed.map((c) => [c.rule, c.verdict])).toEqual([["family-removed", "breaking"]]);
    const added = diffFamilies(new Map([["family-a", a]]), new Map([["family-a", a], ["family-b", b]]));
    expect(added.map((c) => [c.rule, c.verdict])).toEqual([["family-added", "compatible"]]);
  });

  it("finds nothing between a document and itself (both families)", () => {
    for (const family of ["family-a", "family-b"] as const) expect(diffDocuments(generated(family), generated(family), { family })).toEqual([]);
  });

  it("follows $refs: a change in a component is reported on every operation that reaches it, with its origin", () => {
    const head = generated("family-a");
    head.components.schemas.ChargeStatus.enum.pop();
    const changes = diffDocuments(generated("family-a"), head, { family: "family-a" }).filter((c) => c.rule === "response-enum-value-removed");
    expect(changes.map((c) => c.operation)).toEqual(expect.arrayContaining(["POST /v1/charges", "GET /v1/charges/{id}", "WEBHOOK charge.paid"]));
    expect(changes[0]!.origin).toMatch(/^#\/components\/schemas\/(Charge|ChargeStatus)/);
    expect(changes[0]!.pointer).toBe("/paths/~1v1~1charges/post/responses/201/content/application~1json/schema/properties/status");
  });

  it("covers every rule, and every rule family has a breaking and a compatible case", () => {
    const covered = new Set([...CASES.map((c) => c.rule), "family-removed", "family-added"]);
    expect(RULE_LIST.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
    const families = new Set(RULE_LIST.map((r) => r.family));
    for (const family of families) {
      const verdicts = new Set(RULE_LIST.filter((r) => r.family === family && covered.has(r.id)).map((r) => r.verdict));
      expect([family, verdicts.has("breaking") && verdicts.has("compatible")]).toEqual([family, true]);
    }
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });
});
