/**
 * Every example in the generated OpenAPI documents is a value the contract allows: it
 * validates against its own schema (converted to JSON Schema, checked by ajv), and its domain
 * values are real (CPF/CNPJ check digits, BR Code CRC, boleto digits agreeing with the due date
 * and amount, EndToEndId, txid, QR image, CEP, timestamps). Clients copy examples and the mock
 * serves them, so a wrong example is a wrong contract.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as boletoUtils from "@mrmgomes/boleto-utils";
import { describe, expect, it } from "vitest";
import { ROOT } from "../src/build/contract-build.ts";
import {
  barCodeProblem,
  addDomainCounts,
  bankLineToBarCode,
  checkDomainValues,
  cpfCnpjProblem,
  DOMAIN_CHECKS,
  type DomainCheck,
  type DomainProblem,
} from "../src/domain/domain-checks.ts";
import { compileOpenApiSchema, describeSchemaErrors, subschemas, toJsonSchema } from "../src/model/json-schema.ts";
import { FAMILIES, OPENAPI_VERSIONS, openapiPath, type OpenApiVersionId } from "../src/model/layout.ts";

type Json = Record<string, unknown>;

interface Example {
  /** JSON pointer of the example value in the document. */
  pointer: string;
  kind: "media type" | "parameter" | "header" | "schema";
  value: unknown;
  /** JSON pointer of the schema the example must satisfy (same in the dereferenced document). */
  schemaPointer: string | null;
  /** Parameter or header name: its example is a value of that name for the domain checks. */
  name?: string;
}

interface LoadedDocument {
  label: string;
  version: OpenApiVersionId;
  raw: Json;
  dereferenced: Json;
  examples: Example[];
}

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function escape(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

function pointerOf(...segments: string[]): string {
  return segments.map((s) => `/${escape(s)}`).join("");
}

function resolvePointer(document: unknown, pointer: string): unknown {
  let node = document;
  for (const raw of pointer.split("/").slice(1)) {
    const segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Json)[segment];
  }
  return node;
}

/**
 * Finds every example in the document by walking its structure (not by key name, so a property
 * called `example` is not taken for one). Elements written as `$ref` are visited where they are
 * defined, under components, so each example is counted once.
 */
function collectExamples(raw: Json, dereferenced: Json): Example[] {
  const found: Example[] = [];

  const exampleValues = (node: Json, at: string, kind: Example["kind"], schemaPointer: string | null, name?: string) => {
    if ("example" in node) found.push({ pointer: `${at}/example`, kind, value: node.example, schemaPointer, name });
    if (isObject(node.examples)) {
      for (const key of Object.keys(node.examples)) {
        // Named examples may be $refs: read them from the dereferenced document.
        const entry = resolvePointer(dereferenced, `${at}/examples/${escape(key)}`);
        if (isObject(entry) && "value" in entry) {
          found.push({ pointer: `${at}/examples/${escape(key)}/value`, kind, value: entry.value, schemaPointer, name });
        }
      }
    }
  };

  const visitSchema = (schema: unknown, at: string) => {
    if (!isObject(schema) || "$ref" in schema) return;
    if ("example" in schema) found.push({ pointer: `${at}/example`, kind: "schema", value: schema.example, schemaPointer: at });
    if (Array.isArray(schema.examples)) {
      schema.examples.forEach((value, index) =>
        found.push({ pointer: `${at}/examples/${index}`, kind: "schema", value, schemaPointer: at }),
      );
    }
    for (const sub of subschemas(schema)) visitSchema(sub.schema, at + pointerOf(...sub.segments));
  };

  const visitParameter = (parameter: unknown, at: string) => {
    if (!isObject(parameter) || "$ref" in parameter) return;
    const schemaPointer = isObject(parameter.schema) ? `${at}/schema` : null;
    exampleValues(parameter, at, "parameter", schemaPointer, String(parameter.name));
    visitSchema(parameter.schema, `${at}/schema`);
  };

  const visitHeader = (name: string, header: unknown, at: string) => {
    if (!isObject(header) || "$ref" in header) return;
    exampleValues(header, at, "header", isObject(header.schema) ? `${at}/schema` : null, name);
    visitSchema(header.schema, `${at}/schema`);
  };

  const visitContent = (content: unknown, at: string) => {
    if (!isObject(content)) return;
    for (const [mediaType, media] of Object.entries(content)) {
      if (!isObject(media)) continue;
      const mediaAt = `${at}/${escape(mediaType)}`;
      exampleValues(media, mediaAt, "media type", isObject(media.schema) ? `${mediaAt}/schema` : null);
      visitSchema(media.schema, `${mediaAt}/schema`);
    }
  };

  const visitResponse = (response: unknown, at: string) => {
    if (!isObject(response) || "$ref" in response) return;
    visitContent(response.content, `${at}/content`);
    if (isObject(response.headers)) {
      for (const [name, header] of Object.entries(response.headers)) visitHeader(name, header, `${at}/headers/${escape(name)}`);
    }
  };

  const visitRequestBody = (body: unknown, at: string) => {
    if (!isObject(body) || "$ref" in body) return;
    visitContent(body.content, `${at}/content`);
  };

  const visitOperation = (operation: Json, at: string) => {
    if (Array.isArray(operation.parameters)) {
      operation.parameters.forEach((p, i) => visitParameter(p, `${at}/parameters/${i}`));
    }
    visitRequestBody(operation.requestBody, `${at}/requestBody`);
    if (isObject(operation.responses)) {
      for (const [status, response] of Object.entries(operation.responses)) visitResponse(response, `${at}/responses/${escape(status)}`);
    }
  };

  const visitPathItems = (items: unknown, at: string) => {
    if (!isObject(items)) return;
    for (const [path, item] of Object.entries(items)) {
      if (!isObject(item)) continue;
      const itemAt = `${at}/${escape(path)}`;
      if (Array.isArray(item.parameters)) item.parameters.forEach((p, i) => visitParameter(p, `${itemAt}/parameters/${i}`));
      for (const method of HTTP_METHODS) if (isObject(item[method])) visitOperation(item[method] as Json, `${itemAt}/${method}`);
    }
  };

  visitPathItems(raw.paths, "/paths");
  visitPathItems(raw.webhooks, "/webhooks");
  const components = isObject(raw.components) ? raw.components : {};
  const each = (group: string, visit: (name: string, node: unknown, at: string) => void) => {
    const entries = components[group];
    if (isObject(entries)) for (const [name, node] of Object.entries(entries)) visit(name, node, pointerOf("components", group, name));
  };
  each("schemas", (_, schema, at) => visitSchema(schema, at));
  each("parameters", (_, parameter, at) => visitParameter(parameter, at));
  each("headers", (name, header, at) => visitHeader(name, header, at));
  each("requestBodies", (_, body, at) => visitRequestBody(body, at));
  each("responses", (_, response, at) => visitResponse(response, at));
  return found;
}

function readJson(relativePath: string): Json {
  return JSON.parse(readFileSync(join(ROOT, "generated", relativePath), "utf8")) as Json;
}

const DOCUMENTS: LoadedDocument[] = OPENAPI_VERSIONS.flatMap((version) =>
  FAMILIES.map((family) => {
    const raw = readJson(openapiPath(version.id, family.id, "json"));
    const dereferenced = readJson(openapiPath(version.id, family.id, "dereferenced.json"));
    return {
      label: `${version.id} ${family.id}`,
      version: version.id,
      raw,
      dereferenced,
      examples: collectExamples(raw, dereferenced),
    };
  }),
);

/** The value the domain checks walk: a parameter's or header's example under its name. */
function domainSubject(example: Example): unknown {
  return example.name === undefined ? example.value : { [example.name]: example.value };
}

function domainProblemsOf(document: LoadedDocument): { problems: DomainProblem[]; checked: Record<DomainCheck, number> } {
  const problems: DomainProblem[] = [];
  const checked = Object.fromEntries(DOMAIN_CHECKS.map((c) => [c, 0])) as Record<DomainCheck, number>;
  for (const example of document.examples) {
    const report = checkDomainValues(domainSubject(example), example.pointer);
    problems.push(...report.problems);
    addDomainCounts(checked, report.checked);
  }
  return { problems, checked };
}

describe.each(DOCUMENTS)("examples of $label", (document) => {
  it("validate against their own schemas", () => {
    const failures: string[] = [];
    const withoutSchema: string[] = [];
    const byKind: Record<string, number> = {};
    for (const example of document.examples) {
      if (example.schemaPointer === null) {
        withoutSchema.push(example.pointer);
        continue;
      }
      const schema = resolvePointer(document.dereferenced, example.schemaPointer);
      const validate = compileOpenApiSchema(schema, document.version);
      byKind[example.kind] = (byKind[example.kind] ?? 0) + 1;
      if (!validate(example.value)) {
        failures.push(`${example.pointer}:\n    ${describeSchemaErrors(validate).join("\n    ")}`);
      }
    }
    console.log(
      `${document.label}: ${document.examples.length} examples validated against their schemas ` +
        `(${Object.entries(byKind).map(([kind, n]) => `${n} ${kind}`).join(", ")})`,
    );
    expect(document.examples.length).toBeGreaterThan(0);
    expect(withoutSchema, "examples without a schema to check them against").toEqual([]);
    expect(failures, failures.join("\n")).toEqual([]);
  });

  it("carry valid domain values (documents, BR Codes, boletos, PIX ids, CEPs, timestamps)", () => {
    const { problems, checked } = domainProblemsOf(document);
    const total = Object.values(checked).reduce((a, b) => a + b, 0);
    console.log(`${document.label}: ${total} domain values checked ${JSON.stringify(checked)}`);
    const lines = problems.map((p) => `${p.check} at ${p.path}: ${JSON.stringify(p.value)}: ${p.problem}`);
    expect(lines, lines.join("\n")).toEqual([]);
  });
});

it("every domain check applies to at least one example (no check passes vacuously)", () => {
  const checked = Object.fromEntries(DOMAIN_CHECKS.map((c) => [c, 0])) as Record<DomainCheck, number>;
  for (const document of DOCUMENTS) addDomainCounts(checked, domainProblemsOf(document).checked);
  const unused = DOMAIN_CHECKS.filter((check) => checked[check] === 0);
  expect(unused).toEqual([]);
});

it("the media-type examples of every operation are found (walker sanity)", () => {
  // Counted independently of the walker: every operation's request and response media types
  // that carry an `example` in the raw document.
  for (const document of DOCUMENTS) {
    let expected = 0;
    for (const item of Object.values((document.raw.paths ?? {}) as Json)) {
      for (const method of HTTP_METHODS) {
        const operation = (item as Json)[method];
        if (!isObject(operation)) continue;
        const bodies = [operation.requestBody, ...Object.values((operation.responses ?? {}) as Json)];
        for (const body of bodies) {
          if (!isObject(body) || !isObject(body.content)) continue;
          for (const media of Object.values(body.content)) if (isObject(media) && "example" in media) expected += 1;
        }
      }
    }
    const found = document.examples.filter((e) => e.kind === "media type" && e.pointer.startsWith("/paths/")).length;
    expect(found, document.label).toBe(expected);
  }
});

it("schema validation rejects an example that lost a required property or carries a number as a string", () => {
  let broken = 0;
  for (const document of DOCUMENTS) {
    for (const example of document.examples) {
      if (example.kind !== "media type" || example.schemaPointer === null || !isObject(example.value)) continue;
      const schema = resolvePointer(document.dereferenced, example.schemaPointer);
      if (!isObject(schema) || !Array.isArray(schema.required) || schema.required.length === 0) continue;
      const validate = compileOpenApiSchema(schema, document.version);
      const required = String(schema.required[0]);
      const withoutRequired = structuredClone(example.value);
      delete withoutRequired[required];
      expect(validate(withoutRequired), `${document.label} ${example.pointer} without ${required}`).toBe(false);
      // "15000" for 15000: the mistake Dredd's own body check lets through.
      const numeric = Object.entries(example.value).find(([, value]) => typeof value === "number");
      if (numeric) {
        const asString = { ...structuredClone(example.value), [numeric[0]]: String(numeric[1]) };
        expect(validate(asString), `${document.label} ${example.pointer} with ${numeric[0]} as a string`).toBe(false);
      }
      broken += 1;
    }
  }
  expect(broken).toBeGreaterThan(0);
});

describe("toJsonSchema (OpenAPI schema -> JSON Schema)", () => {
  it("3.0 nullable widens the type, or adds null as an alternative when enum or allOf constrain the value", () => {
    const schema = {
      type: "object",
      properties: {
        plain: { type: "string", nullable: true },
        listed: { type: "string", enum: ["a"], nullable: true },
        composed: { allOf: [{ type: "string", pattern: "^\\d{11}$" }], nullable: true },
        strict: { type: "string" },
      },
    };
    const validate = compileOpenApiSchema(schema, "3.0");
    expect(validate({ plain: null, listed: null, composed: null })).toBe(true);
    expect(validate({ listed: "b" })).toBe(false);
    expect(validate({ composed: "123" })).toBe(false);
    expect(validate({ strict: null })).toBe(false);
  });

  it("drops OpenAPI-only keywords but keeps properties that happen to share their names", () => {
    const converted = toJsonSchema(
      {
        type: "object",
        example: { a: 1 },
        "x-basis": "decision",
        properties: { example: { type: "string", readOnly: true }, nullable: { type: "boolean" } },
      },
      "3.0",
    );
    expect(converted).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { example: { type: "string" }, nullable: { type: "boolean" } },
    });
  });

  it("turns 3.0 boolean exclusive bounds into draft-07 numbers, and checks OpenAPI numeric formats", () => {
    const validate = compileOpenApiSchema({ type: "integer", format: "int32", minimum: 0, exclusiveMinimum: true }, "3.0");
    expect(validate(0)).toBe(false);
    expect(validate(1)).toBe(true);
    expect(validate(2 ** 31)).toBe(false);
  });

  it("validates 3.1 schemas as JSON Schema 2020-12 (type unions with null, examples kept as annotation)", () => {
    const validate = compileOpenApiSchema({ type: ["string", "null"], format: "date-time", examples: ["2026-11-21T14:30:00Z"] }, "3.1");
    expect(validate(null)).toBe(true);
    expect(validate("2026-11-21T14:30:00Z")).toBe(true);
    expect(validate("2026-02-30T14:30:00Z")).toBe(false);
  });
});

// -------------------------------------------------------------------------------------------
// Guards: each domain check rejects a broken value. The broken values are derived from the
// documents' own examples, so the guards follow the contract when examples change.

const SAMPLE_EXAMPLES = DOCUMENTS.filter((d) => d.version === "3.0").flatMap((d) => d.examples.map(domainSubject));

/** A deep copy of the first example holding an object with `key`, and that object in the copy. */
function exampleHolding(key: string, accept: (value: unknown) => boolean = () => true): { root: unknown; holder: Json } {
  const find = (node: unknown): Json | undefined => {
    if (Array.isArray(node)) {
      for (const item of node) {
        const hit = find(item);
        if (hit) return hit;
      }
      return undefined;
    }
    if (!isObject(node)) return undefined;
    if (key in node && node[key] !== null && accept(node[key])) return node;
    for (const value of Object.values(node)) {
      const hit = find(value);
      if (hit) return hit;
    }
    return undefined;
  };
  for (const example of SAMPLE_EXAMPLES) {
    const root = structuredClone(example);
    const holder = find(root);
    if (holder) return { root, holder };
  }
  throw new Error(`no example holds a "${key}" value`);
}

/** The problems of `check` that `breakIt` adds to the example (problems it already had excluded). */
function problemsAddedBy(root: unknown, check: DomainCheck, breakIt: () => void): DomainProblem[] {
  const key = (p: DomainProblem) => `${p.check}|${p.path}|${p.problem}`;
  const before = new Set(checkDomainValues(root).problems.map(key));
  breakIt();
  return checkDomainValues(root).problems.filter((p) => p.check === check && !before.has(key(p)));
}

/** Breaks `holder[key]` with `mutate` and expects the walk over the example to report `check`. */
function expectRejected(check: DomainCheck, key: string, mutate: (value: string) => unknown, accept?: (v: unknown) => boolean) {
  const { root, holder } = exampleHolding(key, accept);
  const added = problemsAddedBy(root, check, () => {
    holder[key] = mutate(String(holder[key]));
  });
  expect(added.length, `${check} after breaking ${key}`).toBeGreaterThan(0);
}

function replaceAt(text: string, index: number, replacement: string): string {
  return text.slice(0, index) + replacement + text.slice(index + replacement.length);
}

/** The BR Code with the first letter of its merchant name (EMV tag 59) changed, CRC untouched. */
function withMerchantNameChanged(brCode: string): string {
  for (let at = 0; at < brCode.length; at += 4 + Number(brCode.slice(at + 2, at + 4))) {
    if (brCode.slice(at, at + 2) === "59") return replaceAt(brCode, at + 4, brCode[at + 4] === "X" ? "Y" : "X");
  }
  throw new Error("BR Code without a merchant name");
}

function nextDigit(digit: string): string {
  return String((Number(digit) + 1) % 10);
}

describe("domain checks reject broken values", () => {
  it("CPF and CNPJ with a wrong check digit", () => {
    for (const length of [11, 14]) {
      const { holder } = exampleHolding("document", (v) => typeof v === "string" && v.length === length);
      const value = String(holder.document);
      expect(cpfCnpjProblem(replaceAt(value, length - 1, nextDigit(value.at(-1)!)))).toMatch(/check digits are \d{2}, should be \d{2}/);
    }
    expectRejected("cpf-cnpj", "documentNumber", (v) => replaceAt(v, v.length - 2, nextDigit(v.at(-2)!)));
  });

  it("a BR Code with a corrupted CRC, or a payload changed under its CRC", () => {
    expectRejected("br-code", "brCode", (v) => replaceAt(v, v.length - 1, v.endsWith("A") ? "B" : "A"));
    // One letter of the merchant name changed, the old CRC kept.
    expectRejected("br-code", "br_code", withMerchantNameChanged);
    expectRejected("br-code", "emv", (v) => v.slice(0, -4) + (v.endsWith("0000") ? "FFFF" : "0000"));
  });

  it("a boleto barcode with a wrong general check digit", () => {
    expectRejected("boleto-barcode", "barCode", (v) => replaceAt(v, 4, nextDigit(v[4])));
  });

  it("accepts a bank barcode whose general digit is 1 because mod 11 gave 10 (FEBRABAN rule)", () => {
    // boleto-utils would want 0 here (the collection-slip rule); FEBRABAN bank boletos use 1.
    expect(barCodeProblem("34191166100001000001090000012345678901234500")).toBeNull();
    expect(barCodeProblem("34190166100001000001090000012345678901234500")).toMatch(/should be 1/);
  });

  it("a typed line with a wrong field check digit, or a wrong general check digit", () => {
    expectRejected("boleto-bank-line", "bankLine", (v) => replaceAt(v, 9, nextDigit(v[9])));
    // boleto-utils does not check the general digit of a typed line; the barcode it encodes does.
    expectRejected("boleto-bank-line", "bankLine", (v) => replaceAt(v, 32, nextDigit(v[32])));
  });

  it("a typed line that is valid but describes another boleto than the barcode", () => {
    expectRejected("boleto-pair", "bankLine", (line) => {
      const barCode = bankLineToBarCode(line);
      const changed = replaceAt(barCode, 30, nextDigit(barCode[30]));
      const other = replaceAt(changed, 4, String(boletoUtils.calculaDVCodBarras(changed, 4, 11)));
      return boletoUtils.codBarras2LinhaDigitavel(other, false);
    });
  });

  it("a barcode whose due-date factor or amount disagrees with the boleto", () => {
    expectRejected("boleto-due-date", "duedate", (date) => {
      const next = new Date(`${date.slice(0, 10)}T00:00:00Z`);
      next.setUTCDate(next.getUTCDate() + 1);
      return next.toISOString().slice(0, 10);
    });
    const boleto = exampleHolding("duedate");
    const added = problemsAddedBy(boleto.root, "boleto-amount", () => {
      boleto.holder.amount = Number(boleto.holder.amount) + 1;
    });
    expect(added.length).toBeGreaterThan(0);
  });

  it("an EndToEndId with an impossible date or a wrong length", () => {
    expectRejected("end-to-end-id", "endToEndId", (v) => replaceAt(v, 13, "13"));
    expectRejected("end-to-end-id", "end_to_end_id", (v) => v.slice(0, -1));
  });

  it("a txid shorter than 26 characters", () => {
    expectRejected("txid", "txid", (v) => v.slice(0, 25));
  });

  it("a QR code image that does not hold the brCode next to it", () => {
    const { root, holder } = exampleHolding("image");
    // Another example's BR Code (a different, valid one) next to the same image.
    const added = problemsAddedBy(root, "qr-image", () => {
      holder.brCode = exampleHolding("br_code", (v) => v !== holder.brCode).holder.br_code;
    });
    expect(added.length).toBeGreaterThan(0);
    // An image cut short holds no QR code at all.
    expectRejected("qr-image", "image", (v) => v.slice(0, 40));
  });

  it("a postal code that is not 8 digits", () => {
    expectRejected("postal-code", "postalCode", (v) => v.slice(0, 7));
  });

  it("a timestamp on a day that does not exist", () => {
    expectRejected("timestamp", "createdAt", (v) => `2026-02-30${v.slice(10)}`);
    expectRejected("timestamp", "duedate", () => "2026-02-30");
  });
});
