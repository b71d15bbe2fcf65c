/**
 * Provenance (issue #16, item 10): every element of a family document is either the
 * document's word or marked as a project decision. "The document's word" is defined
 * mechanically from the statement catalogue (spec/statements.yaml):
 *
 * - a PARAMETER is the document's on an operation when a catalogue `parameter` check of that
 *   family locates it there (so `X-Idempotency-Key`, which the document recommends on
 *   `POST /pix`, is the document's there and a decision on `POST /transactions`);
 * - a NAME (response header, body property, error code value, response status)
 *   is the document's when it occurs as a token in the quote of a statement of that family
 *   (or of both families). Tokens are runs of letters, digits and `_`, joined by `-`, `.` or
 *   `:` (`X-API-Key`, `address.postalCode`, `merchant:read`), each also split at `.` and `:`;
 *   header names compare case-insensitively (HTTP), everything else exactly;
 * - a REQUIRED entry (`required: [name]` of an object) is the document's when a catalogue
 *   check of that family asserts it at that very object (`required: true` on the property, or
 *   `requiredInclude` / `requiredExactly` naming it), found by locating the check's schema.
 *
 * Otherwise the element must carry a marking: `x-basis: decision` on itself, on its schema or
 * on an enclosing schema; `x-decided` naming the keyword (`enum` for code values, `required`
 * for required entries); for parameters `x-decided-parameters`; for responses
 * `x-decided-responses` with the `status` aspect; inside a body written inline in a response,
 * the response's `body` aspect. Named component schemas are checked on their own, so a
 * response-level marking never hides an unmarked component.
 *
 * Exceptions (each with its reason) are in PROVENANCE_EXCEPTIONS.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { CONTRACT_ROOT } from "../model/layout.ts";
import { asList, deref, isObject, operationsOf, type FamilyId, type Json } from "../model/index.ts";
import { decidedKeywordsOf, decisionOf } from "../model/markings.ts";
import type { EncodingCheck, OpenApiDocument, ProvenanceCheck } from "./check-types.ts";
import { locateRoots } from "./locate.ts";
import { descend } from "./schema-view.ts";

/** Elements that are neither named by a statement nor marked, on purpose. */
export const PROVENANCE_EXCEPTIONS: Array<{ element: RegExp; reason: string }> = [
  {
    element: /^getMerchant response 200$/,
    reason: "a GET that the document gives a response for (\"a merchant object\") answers 200 OK: RFC 9110 §15.3.1 fixes it, no choice is made",
  },
];

interface Statementish {
  family: string;
  quote: string;
  encoding: EncodingCheck[] | "none";
}

let cachedStatements: Statementish[] | undefined;
function statements(): Statementish[] {
  cachedStatements ??= (parse(readFileSync(join(CONTRACT_ROOT, "spec/statements.yaml"), "utf8")) as Statementish[]).filter(
    (s) => isObject(s) && typeof s.quote === "string",
  );
  return cachedStatements;
}

function appliesTo(statement: Statementish, family: FamilyId): boolean {
  return statement.family === "both" || (statement.family === "A" ? "family-a" : "family-b") === family;
}

/** The names the statements of a family use. */
export function vocabularyOf(family: FamilyId): Set<string> {
  const words = new Set<string>();
  for (const statement of statements()) {
    if (!appliesTo(statement, family)) continue;
    for (const token of statement.quote.match(/[A-Za-z0-9_]+(?:[-.:][A-Za-z0-9_]+)*/g) ?? []) {
      words.add(token);
      for (const part of token.split(/[.:]/)) words.add(part);
    }
  }
  return words;
}

/**
 * `operationId parameterName` pairs a catalogue `parameter` check of the family locates
 * (absent: false), so the parameter's presence on that operation is the document's word.
 */
function parametersByDocument(doc: OpenApiDocument, family: FamilyId): Set<string> {
  const pairs = new Set<string>();
  const operations = operationsOf(doc);
  for (const statement of statements()) {
    if (!appliesTo(statement, family) || statement.encoding === "none") continue;
    for (const check of statement.encoding) {
      if (check.check !== "parameter" || check.absent === true || (check.family !== undefined && check.family !== family)) continue;
      for (const op of operations) {
        const named = check.operation === "*" || check.operation === op.operationId;
        const methodOk = check.methods === undefined || check.methods.includes(op.method.toLowerCase());
        if (named && methodOk) pairs.add(`${op.operationId} ${check.in} ${check.name.toLowerCase()}`);
      }
    }
  }
  return pairs;
}

/** (object, property) pairs whose requiredness a catalogue check of the family asserts. */
function requiredByDocument(doc: OpenApiDocument, family: FamilyId): Map<object, Set<string>> {
  const pairs = new Map<object, Set<string>>();
  const add = (parts: Json[], name: string) => {
    for (const part of parts) {
      if (!asList(part.required as string[]).includes(name)) continue;
      if (!pairs.has(part)) pairs.set(part, new Set());
      pairs.get(part)!.add(name);
    }
  };
  for (const statement of statements()) {
    if (!appliesTo(statement, family) || statement.encoding === "none") continue;
    for (const check of statement.encoding) {
      if (check.check !== "property" || (check.family !== undefined && check.family !== family)) continue;
      const names = [...asList(check.requiredInclude), ...asList(check.requiredExactly)];
      if (check.required !== true && names.length === 0) continue;
      const { roots } = locateRoots(doc, check);
      for (const root of roots) {
        const found = descend(doc, root.schema, check.path);
        if (check.required === true && found.parent && found.name) add(found.parent.parts, found.name);
        if (found.view) for (const name of names) add(found.view.parts, name);
      }
    }
  }
  return pairs;
}

const CODE_PROPERTIES = new Set(["code", "errorCode"]);

interface Context {
  doc: OpenApiDocument;
  vocabulary: Set<string>;
  required: Map<object, Set<string>>;
  problems: string[];
  components: Set<string>;
}

function excepted(element: string): boolean {
  return PROVENANCE_EXCEPTIONS.some((e) => e.element.test(element));
}

function report(ctx: Context, element: string): void {
  if (!excepted(element)) ctx.problems.push(`${element}: neither named by a statement nor marked as a decision`);
}

/**
 * Walks a schema. `marked`: an enclosing element is a decision (or the response body is), so
 * everything inside is. A `$ref` to a component is not followed: components are walked on
 * their own (unmarked), recorded in `ctx.components`.
 */
function walkSchema(ctx: Context, node: unknown, where: string, marked: boolean, depth = 0): void {
  if (!isObject(node) || depth > 40) return;
  if (typeof node.$ref === "string") {
    const name = decodeURIComponent(node.$ref.replace(/^#\/components\/schemas\//, ""));
    if (name !== node.$ref) ctx.components.add(name);
    return;
  }
  const here = marked || decisionOf(node) !== undefined;
  if (isObject(node.properties)) {
    const required = asList(node.required as string[]);
    const documentRequired = ctx.required.get(node) ?? new Set<string>();
    for (const [name, sub] of Object.entries(node.properties)) {
      const target = deref<unknown>(ctx.doc, sub);
      const propertyMarked = here || decisionOf(sub) !== undefined || decisionOf(target) !== undefined;
      if (!propertyMarked && !ctx.vocabulary.has(name)) report(ctx, `${where}.${name}`);
      if (required.includes(name) && !here && !documentRequired.has(name)) {
        const keywords = new Set([...decidedKeywordsOf(sub), ...decidedKeywordsOf(target)].flatMap((d) => d.keywords));
        if (!propertyMarked && !keywords.has("required")) report(ctx, `${where}.${name} (required)`);
      }
      if (CODE_PROPERTIES.has(name) && isObject(target)) {
        const keywords = new Set([...decidedKeywordsOf(sub), ...decidedKeywordsOf(target)].flatMap((d) => d.keywords));
        for (const value of asList(target.enum as unknown[])) {
          if (!propertyMarked && !keywords.has("enum") && !ctx.vocabulary.has(String(value))) report(ctx, `${where}.${name} value ${String(value)}`);
        }
      }
      walkSchema(ctx, sub, `${where}.${name}`, propertyMarked, depth + 1);
    }
  }
  for (const key of ["items", "additionalProperties", "not"]) if (isObject(node[key])) walkSchema(ctx, node[key], `${where}[]`, here, depth + 1);
  for (const key of ["allOf", "anyOf", "oneOf"]) for (const sub of asList(node[key] as unknown[])) walkSchema(ctx, sub, where, here, depth + 1);
}

export function checkProvenance(doc: OpenApiDocument, c: ProvenanceCheck): string[] {
  if (c.family === undefined) return ["the provenance check needs `family`"];
  const ctx: Context = { doc, vocabulary: vocabularyOf(c.family), required: requiredByDocument(doc, c.family), problems: [], components: new Set() };
  const lowerVocabulary = new Set([...ctx.vocabulary].map((w) => w.toLowerCase()));
  const documentParameters = parametersByDocument(doc, c.family);
  for (const op of operationsOf(doc)) {
    const opMarked = decisionOf(op.operation) !== undefined;
    for (const parameter of op.parameters) {
      // The parameter is the document's on THIS operation: a catalogue parameter check locates it there.
      const known = documentParameters.has(`${op.operationId} ${parameter.in} ${parameter.name.toLowerCase()}`);
      if (!known && !opMarked && parameter.decision === undefined && decisionOf(parameter.schema) === undefined) {
        report(ctx, `${op.operationId} parameter ${parameter.in} ${parameter.name}`);
      }
    }
    if (op.requestBody) walkSchema(ctx, op.requestBody.schema, `${op.operationId} request`, opMarked);
    for (const response of op.responses) {
      const decided = response.decided;
      const statusDecided = decided !== undefined && decided.aspects.includes("status");
      if (!opMarked && !statusDecided && !ctx.vocabulary.has(response.status)) report(ctx, `${op.operationId} response ${response.status}`);
      for (const header of response.headers) {
        if (!opMarked && header.decision === undefined && decisionOf(header.schema) === undefined && !lowerVocabulary.has(header.name.toLowerCase())) {
          report(ctx, `${op.operationId} ${response.status} header ${header.name}`);
        }
      }
      const bodyDecided = decided !== undefined && decided.aspects.includes("body") && decided.codes === undefined;
      for (const media of response.content) walkSchema(ctx, media.schema, `${op.operationId} ${response.status}`, opMarked || bodyDecided);
    }
  }
  // Named components on their own, without any response's marking; those reached only from
  // other components join the queue as they are found.
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  const done = new Set<string>();
  for (let queue = [...ctx.components]; queue.length > 0; queue = [...ctx.components].filter((n) => !done.has(n))) {
    for (const name of queue) {
      done.add(name);
      walkSchema(ctx, schemas[name], `schema ${name}`, false);
    }
  }
  return [...new Set(ctx.problems)];
}
