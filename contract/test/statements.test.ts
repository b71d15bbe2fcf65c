/**
 * The statement catalogue (spec/statements.yaml) against the interface description and the
 * generated OpenAPI: every statement is quoted from the document, and every generated document
 * encodes every statement that applies to it. A failing case names the statement id.
 *
 * Reads generated/ as written by `npm run build`; run the build first after changing spec/.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { checkProvenance, evaluateCheck, PROVENANCE_EXCEPTIONS, type EncodingCheck, type Json, type OpenApiDocument } from "../src/encoding/index.ts";
import { FAMILIES, OPENAPI_VERSIONS, openapiPath, type FamilyId, type OpenApiVersionId } from "../src/model/layout.ts";
import { operationsOf } from "../src/model/index.ts";
import {
  SOURCE_DOCUMENT_PATH,
  STATEMENT_KINDS,
  checksFor,
  quoteAppears,
  readCatalogue,
  sectionText,
  statementAppliesTo,
  validateCatalogue,
  type Statement,
} from "../src/statements.ts";
import { CONTRACT_ROOT } from "../src/model/layout.ts";

const ROOT = CONTRACT_ROOT;
const SHARED_DOCUMENT_PATH = resolve(ROOT, "../shared/interface-description.md");

const source = readFileSync(SOURCE_DOCUMENT_PATH, "utf8");
const catalogue = validateCatalogue(readCatalogue());
const statements = catalogue.statements;

function loadDocument(version: OpenApiVersionId, family: FamilyId): OpenApiDocument {
  return JSON.parse(readFileSync(join(ROOT, "generated", openapiPath(version, family, "json")), "utf8")) as OpenApiDocument;
}

const documents = OPENAPI_VERSIONS.flatMap((version) =>
  FAMILIES.map((family) => ({ label: `OpenAPI ${version.id} ${family.id}`, version: version.id, family: family.id, doc: loadDocument(version.id, family.id) })),
);

/** Problems of every check of a statement that applies to a family, labelled by check index. */
function problemsOf(statement: Statement, doc: OpenApiDocument, family: FamilyId): string[] {
  return checksFor(statement, family).flatMap((check, index) => evaluateCheck(doc, check).map((p) => `check ${index} (${check.check}): ${p}`));
}

function statementById(id: string): Statement {
  const found = statements.find((s) => s.id === id);
  if (!found) throw new Error(`statement ${id} is not in the catalogue`);
  return found;
}

describe("statement catalogue: shape", () => {
  test("is well formed: unique ids, required keys, known kinds and check kinds", () => {
    expect(catalogue.problems).toEqual([]);
  });

  test("refuses a statement off the wire without a note, and a malformed or off-wire enforcedBy", () => {
    const base = { family: "A", section: "Limits", kind: "limit", quote: "abc", encoding: "none", reason: "r" };
    const { problems } = validateCatalogue([
      { ...base, id: "A-X-RULE-no-note", wire: false },
      { ...base, id: "A-X-RULE-bad-class", wire: true, enforcedBy: ["Tenant Isolation"] },
      { ...base, id: "A-X-RULE-off-wire-class", wire: false, note: "n", enforcedBy: ["tenant-isolation"] },
      { ...base, id: "A-X-RULE-fine", wire: true, enforcedBy: ["tenant-isolation"] },
    ]);
    expect(problems).toEqual([
      "A-X-RULE-no-note: wire false needs a note saying why",
      "A-X-RULE-bad-class: enforcedBy must be a non-empty list of check class names (kebab-case)",
      "A-X-RULE-off-wire-class: enforcedBy on a statement that is not on the wire",
    ]);
  });

  test("catalogues the whole document (at least 150 statements)", () => {
    expect(statements.length).toBeGreaterThanOrEqual(150);
  });

  test("every statement has an encoding check for a family it applies to, or says why not", () => {
    const without = statements.filter(
      (s) => s.encoding !== "none" && !FAMILIES.some((f) => statementAppliesTo(s, f.id) && checksFor(s, f.id).length > 0),
    );
    expect(without.map((s) => s.id)).toEqual([]);
  });
});

describe("statement catalogue: quotes", () => {
  test.each(statements.map((s) => [s.id, s] as const))("%s is quoted verbatim from its section", (_id, statement) => {
    const text = sectionText(source, statement.section);
    expect(text, `section "${statement.section}" not found in the document`).toBeDefined();
    expect(quoteAppears(text!, statement.quote), `quote not found in section "${statement.section}": ${statement.quote}`).toBe(true);
  });

  test("quote normalisation is whitespace and table padding only", () => {
    expect(quoteAppears("| a  |   b |\n| c | d |", "| a | b | | c | d |")).toBe(true);
    expect(quoteAppears("status `pending` on creation", "status pending on creation")).toBe(false);
    expect(quoteAppears("Status", "status")).toBe(false);
  });

  test("a section path only names a subsection inside its parent", () => {
    expect(sectionText(source, "Authentication > Family A")).toContain("sk_live_");
    expect(sectionText(source, "Events > Family A")).toBeUndefined();
  });
});

describe.each(documents)("$label encodes every statement that applies to it", ({ doc, family }) => {
  const applicable = statements.filter((s) => checksFor(s, family).length > 0);
  test.each(applicable.map((s) => [s.id, s] as const))("%s", (_id, statement) => {
    expect(problemsOf(statement, doc, family)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The checks can fail: remove the element a statement needs from a copy of a document.
// ---------------------------------------------------------------------------------------------

function copy(doc: OpenApiDocument): OpenApiDocument {
  return structuredClone(doc);
}

/** The object a node stands for in the document (follows $ref), so that edits reach the source. */
function target(doc: OpenApiDocument, node: unknown): Json {
  let current = node as Json;
  for (let i = 0; i < 16 && typeof current?.$ref === "string"; i += 1) {
    current = (current.$ref as string)
      .slice(2)
      .split("/")
      .reduce<unknown>((at, key) => (at as Json)[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc) as Json;
  }
  return current;
}

function operationOf(doc: OpenApiDocument, operationId: string): Json {
  const found = operationsOf(doc).find((op) => op.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found.operation;
}

function bodySchema(doc: OpenApiDocument, holder: Json): Json {
  const content = target(doc, holder).content as Json;
  return target(doc, (Object.values(content)[0] as Json).schema);
}

function responseSchema(doc: OpenApiDocument, operationId: string, status: string): Json {
  return bodySchema(doc, (operationOf(doc, operationId).responses as Json)[status] as Json);
}

function requestSchema(doc: OpenApiDocument, operationId: string): Json {
  return bodySchema(doc, operationOf(doc, operationId).requestBody as Json);
}

/** Makes a property schema reject null, whichever way the OpenAPI version admitted it. */
function makeNonNullable(schema: Json): void {
  delete schema.nullable;
  if (Array.isArray(schema.type)) schema.type = (schema.type as string[]).filter((t) => t !== "null");
  if (Array.isArray(schema.anyOf)) {
    const kept = (schema.anyOf as Json[]).filter((branch) => branch.type !== "null");
    delete schema.anyOf;
    Object.assign(schema, kept.length === 1 ? kept[0] : { anyOf: kept });
  }
}

interface Guard {
  name: string;
  family: FamilyId;
  statement: string;
  /** Only on these OpenAPI versions (default: both). */
  versions?: OpenApiVersionId[];
  mutate: (doc: OpenApiDocument) => void;
}

/** A named component schema. */
function componentSchema(doc: OpenApiDocument, name: string): Json {
  return ((doc.components as Json).schemas as Json)[name] as Json;
}

const GUARDS: Guard[] = [
  // Issue #16, item 9: null written the way strict 3.0 validators (Dredd, Prism) refuse.
  {
    name: "a nullable allOf over DocumentDigits (strict 3.0 refuses null)",
    family: "family-a",
    statement: "A-MERCHANT-FIELD-document",
    versions: ["3.0"],
    mutate: (doc) => {
      const merchant = target(doc, responseSchema(doc, "getMerchant", "200"));
      (merchant.properties as Json).document = { type: "string", allOf: [{ $ref: "#/components/schemas/DocumentDigits" }], nullable: true };
    },
  },
  {
    name: "an example that a strict validator refuses",
    family: "family-b",
    statement: "B-BOLETO-FIELD-amountConfirmed",
    mutate: (doc) => {
      const content = target(doc, (operationOf(doc, "getHealth").responses as Json)["200"]).content as Json;
      (content["application/json"] as Json).example = { success: "yes" };
    },
  },
  // Item 5: the rate limits as operation extensions.
  {
    name: "createPixPayment without x-rate-limits",
    family: "family-b",
    statement: "B-LIMITS-LIMIT-pix",
    mutate: (doc) => delete operationOf(doc, "createPixPayment")["x-rate-limits"],
  },
  {
    name: "getTransaction counted only against the general limit",
    family: "family-b",
    statement: "B-LIMITS-LIMIT-queries",
    mutate: (doc) => {
      operationOf(doc, "getTransaction")["x-rate-limits"] = [{ bucket: "general", limit: 100, window: "minute" }];
    },
  },
  // Item 6: User-Agent declared.
  {
    name: "getHealth without the User-Agent parameter",
    family: "family-b",
    statement: "B-AUTH-HEADER-user-agent",
    mutate: (doc) => {
      const op = operationOf(doc, "getHealth");
      op.parameters = ((op.parameters as Json[]) ?? []).filter((p) => target(doc, p).name !== "User-Agent");
    },
  },
  // Item 7: the prohibitions encoded, not only left out.
  {
    name: "a customer reading that no longer forbids phoneNumber",
    family: "family-b",
    statement: "B-CUSTOMER-RULE-no-phoneNumber",
    mutate: (doc) => delete componentSchema(doc, "Customer").not,
  },
  {
    name: "a customer address that no longer forbids postalCode",
    family: "family-b",
    statement: "B-CUSTOMER-RULE-address-without-postalCode",
    mutate: (doc) => delete componentSchema(doc, "CustomerAddress").not,
  },
  // Item 10: provenance.
  {
    name: "an unmarked property the document never names",
    family: "family-a",
    statement: "A-SERVICE-PRINCIPLE-scope",
    mutate: (doc) => {
      (componentSchema(doc, "Charge").properties as Json).fee_amount = { type: "integer" };
    },
  },
  {
    name: "RATE_LIMITED without its decision marking",
    family: "family-a",
    statement: "A-SERVICE-PRINCIPLE-scope",
    mutate: (doc) => delete ((componentSchema(doc, "RateLimitedProblem").properties as Json).code as Json)["x-decided"],
  },
  {
    name: "a Charge field required without a marking",
    family: "family-a",
    statement: "A-SERVICE-PRINCIPLE-scope",
    mutate: (doc) => {
      const id = (componentSchema(doc, "Charge").properties as Json).id as Json;
      delete id["x-decided"];
    },
  },
  {
    name: "X-Idempotency-Key on createTransaction without its marking",
    family: "family-b",
    statement: "B-SERVICE-PRINCIPLE-scope",
    mutate: (doc) => delete operationOf(doc, "createTransaction")["x-decided-parameters"],
  },
  {
    name: "the charge without its amount property",
    family: "family-a",
    statement: "A-CHARGE-FIELD-amount",
    mutate: (doc) => delete (responseSchema(doc, "createCharge", "201").properties as Json).amount,
  },
  {
    name: "deleteCustomer without its 409 response",
    family: "family-b",
    statement: "B-ERRORS-ERROR-OCD001-409",
    mutate: (doc) => delete (operationOf(doc, "deleteCustomer").responses as Json)["409"],
  },
  {
    name: "the Idempotency-Key header without minLength",
    family: "family-a",
    statement: "A-LIMITS-LIMIT-idempotency-key",
    mutate: (doc) => {
      for (const raw of operationOf(doc, "createCharge").parameters as Json[]) {
        const param = target(doc, raw);
        if (param.name === "Idempotency-Key") delete (param.schema as Json).minLength;
      }
    },
  },
  {
    name: "the Idempotency-Key header without minLength (instances)",
    family: "family-a",
    statement: "A-CHARGES-HEADER-idempotency-key",
    mutate: (doc) => {
      for (const raw of operationOf(doc, "createCharge").parameters as Json[]) {
        const param = target(doc, raw);
        if (param.name === "Idempotency-Key") delete (param.schema as Json).minLength;
      }
    },
  },
  {
    name: "getMerchant without the merchant:read scope",
    family: "family-a",
    statement: "A-AUTH-AUTH-merchant-scope",
    mutate: (doc) => delete operationOf(doc, "getMerchant")["x-required-scopes"],
  },
  {
    name: "end_to_end_id that cannot be null",
    family: "family-a",
    statement: "A-CHARGE-FIELD-pix",
    mutate: (doc) => {
      // A marked property over a named schema is written `{allOf: [{$ref}], x-decided}`.
      const property = (responseSchema(doc, "createCharge", "201").properties as Json).pix as Json;
      const pix = target(doc, Array.isArray(property.allOf) ? (property.allOf as Json[])[0] : property);
      makeNonNullable((pix.properties as Json).end_to_end_id as Json);
    },
  },
  {
    name: "the customer create request not requiring name",
    family: "family-b",
    statement: "B-CUSTOMER-FIELD-name",
    mutate: (doc) => {
      const schema = requestSchema(doc, "createCustomer");
      schema.required = (schema.required as string[]).filter((n) => n !== "name");
    },
  },
  {
    name: "an optional Retry-After on a 429",
    family: "family-b",
    statement: "B-LIMITS-HEADER-retry-after",
    mutate: (doc) => {
      const response = target(doc, (operationOf(doc, "getHealth").responses as Json)["429"]);
      (target(doc, (response.headers as Json)["Retry-After"]) as Json).required = false;
    },
  },
  {
    name: "a createCharge description without the replay rule",
    family: "family-a",
    statement: "A-IDEM-RULE-replay",
    mutate: (doc) => {
      const op = operationOf(doc, "createCharge");
      op.description = String(op.description).replace(/no new ledger entry/g, "a new ledger entry");
    },
  },
  {
    name: "a camelCase field in the charge",
    family: "family-a",
    statement: "A-SERVICE-PRINCIPLE-snake-case",
    mutate: (doc) => {
      (responseSchema(doc, "createCharge", "201").properties as Json).paidAt = { type: "string" };
    },
  },
  {
    name: "a closed health response",
    family: "family-b",
    statement: "AB-VERSION-VERSIONING-ignore-unknown-fields",
    mutate: (doc) => {
      responseSchema(doc, "getHealth", "200").additionalProperties = false;
    },
  },
  {
    name: "envelope 2 admitting any version string",
    family: "family-b",
    statement: "B-VERSION-VERSIONING-envelope-2-semver",
    mutate: (doc) => {
      const version = target(doc, (responseSchema(doc, "deleteCustomer", "404").properties as Json).version);
      delete version.allOf;
      delete version.pattern;
      version.type = "string";
    },
  },
  {
    name: "cancelBoleto no longer admitting ODE002",
    family: "family-b",
    statement: "B-ERRORS-ERROR-ODE002",
    mutate: (doc) => {
      const responses = operationOf(doc, "cancelBoleto").responses as Json;
      for (const status of Object.keys(responses)) {
        const error = target(doc, (bodySchema(doc, responses[status] as Json).properties as Json | undefined)?.error);
        const code = error && target(doc, (error.properties as Json | undefined)?.errorCode);
        if (code && Array.isArray(code.enum)) code.enum = (code.enum as string[]).filter((c) => c !== "ODE002");
      }
    },
  },
  // Domain validity where the document names the type: the extension, not marked decided.
  {
    name: "the merchant's document with its cpf-cnpj format marked decided",
    family: "family-a",
    statement: "A-MERCHANT-FIELD-document",
    mutate: (doc) => {
      const document = (componentSchema(doc, "Merchant").properties as Json).document as Json;
      document["x-decided"] = [{ decision: "D43", keywords: ["x-domain-format"] }];
    },
  },
  {
    name: "a charge's br_code without its br-code format",
    family: "family-a",
    statement: "A-CHARGE-PRINCIPLE-br-code",
    mutate: (doc) => delete ((componentSchema(doc, "ChargePix").properties as Json).br_code as Json)["x-domain-format"],
  },
  {
    name: "a customer document without its cpf-cnpj format",
    family: "family-b",
    statement: "B-CUSTOMER-FIELD-documentNumber",
    mutate: (doc) => delete componentSchema(doc, "CustomerDocument")["x-domain-format"],
  },
  {
    name: "a boleto bank slip whose barcode and typed line may be two boletos",
    family: "family-b",
    statement: "B-BOLETO-FIELD-boleto",
    mutate: (doc) => delete componentSchema(doc, "BoletoBankSlip")["x-domain-format"],
  },
  {
    name: "a boleto typed line without its boleto-bank-line format",
    family: "family-b",
    statement: "B-BOLETO-FIELD-boleto",
    mutate: (doc) => delete ((componentSchema(doc, "BoletoBankSlip").properties as Json).bankLine as Json)["x-domain-format"],
  },
  {
    name: "a family B operation without the API key requirement",
    family: "family-b",
    statement: "B-AUTH-AUTH-header",
    mutate: (doc) => {
      operationOf(doc, "getHealth").security = [];
    },
  },
];

describe.each(OPENAPI_VERSIONS.map((v) => v.id))("checks fail when the element is removed (OpenAPI %s)", (version) => {
  test.each(GUARDS.filter((g) => !g.versions || g.versions.includes(version)).map((g) => [g.name, g] as const))("%s", (_name, guard) => {
    const statement = statementById(guard.statement);
    const original = loadDocument(version, guard.family);
    expect(problemsOf(statement, original, guard.family), "the unmodified document must pass").toEqual([]);
    const broken = copy(original);
    guard.mutate(broken);
    expect(problemsOf(statement, broken, guard.family).length, `${guard.statement} should fail on ${guard.name}`).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Provenance: an element that is neither the document's word nor marked is reported by name.
// ---------------------------------------------------------------------------------------------

interface Unmarked {
  name: string;
  family: FamilyId;
  mutate: (doc: OpenApiDocument) => void;
  /** The element the check must report (its label, as the report starts). */
  reports: string;
}

function withoutMarking(node: Json, keyword?: string): void {
  if (keyword === undefined) {
    delete node["x-basis"];
    delete node["x-decision"];
    return;
  }
  node["x-decided"] = (node["x-decided"] as Array<{ keywords: string[] }>)
    .map((d) => ({ ...d, keywords: d.keywords.filter((k) => k !== keyword) }))
    .filter((d) => d.keywords.length > 0);
}

function memberOf(doc: OpenApiDocument, schema: string, member: string): Json {
  return (componentSchema(doc, schema).properties as Json)[member] as Json;
}

function parameterNamed(doc: OpenApiDocument, operationId: string, name: string): Json {
  const found = (operationOf(doc, operationId).parameters as Json[]).map((p) => target(doc, p)).find((p) => p.name === name);
  if (!found) throw new Error(`${operationId} has no parameter ${name}`);
  return found;
}

const UNMARKED: Unmarked[] = [
  {
    name: "a required entry of a request body without its marking",
    family: "family-b",
    mutate: (doc) => withoutMarking(memberOf(doc, "BoletoCancelRequest", "reason"), "required"),
    reports: "schema BoletoCancelRequest.reason (required)",
  },
  {
    name: "a required entry of a response member without its marking",
    family: "family-b",
    mutate: (doc) => withoutMarking(memberOf(doc, "CustomerAddress", "street"), "required"),
    reports: "schema CustomerAddress.street (required)",
  },
  {
    name: "a member of the update's address without its marking",
    family: "family-b",
    mutate: (doc) => withoutMarking(memberOf(doc, "CustomerAddressUpdate", "street")),
    reports: "schema CustomerAddressUpdate.street",
  },
  {
    name: "a member whose name the document uses, but elsewhere",
    family: "family-b",
    mutate: (doc) => {
      (componentSchema(doc, "BoletoCancelRequest").properties as Json).status = { type: "string" };
    },
    reports: "schema BoletoCancelRequest.status",
  },
  {
    name: "a response member no statement gives",
    family: "family-a",
    mutate: (doc) => {
      (componentSchema(doc, "Merchant").properties as Json).website = { type: "string" };
    },
    reports: "schema Merchant.website",
  },
  {
    name: "a status value the document does not list",
    family: "family-b",
    mutate: (doc) => (componentSchema(doc, "BoletoStatus").enum as string[]).push("EXPIRED"),
    reports: "schema BoletoCharge.status value EXPIRED",
  },
  {
    name: "a pattern without its marking",
    family: "family-b",
    mutate: (doc) => withoutMarking(componentSchema(doc, "PostalCode"), "pattern"),
    reports: String.raw`schema PostalCode pattern "^\\d{8}$"`,
  },
  {
    name: "a parameter type without its marking",
    family: "family-b",
    mutate: (doc) => {
      const page = parameterNamed(doc, "listTransactions", "page");
      withoutMarking(page, "type");
      withoutMarking(target(doc, page.schema), "type");
    },
    reports: 'listTransactions parameter query page type "integer"',
  },
  {
    name: "a response header no statement gives",
    family: "family-b",
    mutate: (doc) => {
      const response = target(doc, (operationOf(doc, "getHealth").responses as Json)["200"]);
      (response.headers as Json)["X-Request-Id"] = { schema: { type: "string" } };
    },
    reports: "getHealth 200 header X-Request-Id",
  },
];

describe.each(OPENAPI_VERSIONS.map((v) => v.id))("provenance reports the unmarked element (OpenAPI %s)", (version) => {
  test.each(UNMARKED.map((u) => [u.name, u] as const))("%s", (_name, unmarked) => {
    const check: EncodingCheck = { check: "provenance", family: unmarked.family };
    const original = loadDocument(version, unmarked.family);
    expect(evaluateCheck(original, check), "the unmodified document must pass").toEqual([]);
    const broken = copy(original);
    unmarked.mutate(broken);
    const problems = evaluateCheck(broken, check);
    expect(problems).toContain(`${unmarked.reports}: neither the document's word nor marked as a decision`);
  });
});

describe("provenance exceptions", () => {
  test("each excuses an element of some family document (the list can only shrink)", () => {
    const unexcused = documents.flatMap(({ doc, family }) => checkProvenance(doc, { check: "provenance", family }, []));
    const idle = PROVENANCE_EXCEPTIONS.filter((e) => !unexcused.some((p) => e.element.test(p.replace(/: neither .*$/, ""))));
    expect(idle.map((e) => String(e.element))).toEqual([]);
  });
});

describe("check evaluation handles every null and wrapper form", () => {
  const nullForms: Array<[string, Json, Json]> = [
    ["3.0 nullable", { openapi: "3.0.0" }, { type: "string", nullable: true }],
    ["3.1 type list", { openapi: "3.1.0" }, { type: ["string", "null"] }],
    ["3.1 anyOf null", { openapi: "3.1.0" }, { anyOf: [{ type: "string" }, { type: "null" }] }],
    ["allOf wrapper", { openapi: "3.0.0" }, { allOf: [{ $ref: "#/components/schemas/Text" }], nullable: true }],
  ];
  test.each(nullForms)("%s", (_name, header, property) => {
    const doc: OpenApiDocument = {
      ...header,
      components: { schemas: { Text: { type: "string" }, Holder: { type: "object", properties: { value: property } } } },
    };
    const check: EncodingCheck = { check: "property", schema: "Holder", path: "value", type: "string", nullable: true };
    expect(evaluateCheck(doc, check)).toEqual([]);
    expect(evaluateCheck(doc, { ...check, nullable: false }).length).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------
// Coverage and counts
// ---------------------------------------------------------------------------------------------

describe("statement catalogue: coverage", () => {
  test("every published operation is catalogued as an endpoint statement with its method and path", () => {
    const published = documents
      .filter((d) => d.version === "3.1")
      .flatMap((d) =>
        operationsOf(d.doc)
          .filter((op) => ["GET", "PUT", "POST", "DELETE", "PATCH"].includes(op.method))
          .map((op) => `${op.method} ${op.path}`),
      );
    const endpointChecks = new Set(
      statements
        .filter((s) => s.kind === "endpoint" && s.encoding !== "none")
        .flatMap((s) => (s.encoding as EncodingCheck[]).filter((c) => c.check === "operation"))
        .map((c) => `${(c as { method: string }).method.toUpperCase()} ${(c as { path: string }).path}`),
    );
    expect(published).toHaveLength(19);
    expect(published.filter((op) => !endpointChecks.has(op))).toEqual([]);
  });

  test("counts", () => {
    const withChecks = statements.filter((s) => s.encoding !== "none");
    const perKind = Object.fromEntries(STATEMENT_KINDS.map((k) => [k, statements.filter((s) => s.kind === k).length]));
    const perFamily = Object.fromEntries(["A", "B", "both"].map((f) => [f, statements.filter((s) => s.family === f).length]));
    const checks = withChecks.flatMap((s) => s.encoding as EncodingCheck[]);
    const perCheck = Object.fromEntries([...new Set(checks.map((c) => c.check))].sort().map((k) => [k, checks.filter((c) => c.check === k).length]));
    console.log(
      [
        `statements catalogued: ${statements.length}`,
        `statements with encoding checks: ${withChecks.length} (${checks.length} checks)`,
        `wire-checkable statements: ${statements.filter((s) => s.wire).length}`,
        `per kind: ${JSON.stringify(perKind)}`,
        `per family: ${JSON.stringify(perFamily)}`,
        `per check kind: ${JSON.stringify(perCheck)}`,
      ].join("\n"),
    );
    expect(withChecks.length).toBeGreaterThan(0);
  });
});

describe("normative source", () => {
  test("spec/source/interface-description.md is byte-identical to ../shared/interface-description.md", () => {
    if (!existsSync(SHARED_DOCUMENT_PATH)) {
      console.warn(`${SHARED_DOCUMENT_PATH} is absent; the copy under spec/source/ cannot be compared.`);
      return;
    }
    expect(readFileSync(SOURCE_DOCUMENT_PATH).equals(readFileSync(SHARED_DOCUMENT_PATH))).toBe(true);
  });
});
