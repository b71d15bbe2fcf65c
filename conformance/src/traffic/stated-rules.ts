/**
 * What the statement catalogue states about an exchange beyond the profile's schemas, read from
 * the statements' encodings (the document's word, so held under seed too):
 * - members a response must carry (`property` encodings with `required: true`: "every error
 *   carries a stable code", even where the error body's shape is a decision);
 * - the error code a refusal must carry when the request broke a parameter the statement names
 *   (`response` encodings with `errorCode`: "Idempotency-Key missing or under 8 characters ->
 *   400 IDEMPOTENCY_KEY_REQUIRED").
 */
import { checksFor } from "@payment-collection/contract/statements.ts";
import type { FamilyContract, FamilyId } from "@payment-collection/contract/model/index.ts";
import { operationMatches, statusMatches, valuesAt, type Catalogue } from "../core/statement-map.ts";
import type { Finding } from "./attribution.ts";

interface Located {
  family: FamilyId;
  contract: FamilyContract;
  operationId: string;
  /** The documented status key the response fell under. */
  status: string;
}

const JSON_TYPES: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === "number",
  boolean: (v) => typeof v === "boolean",
  object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
  array: Array.isArray,
};

/** Where a dotted path's parent exists, whether the member is there. */
function presence(body: unknown, path: string): Array<{ present: boolean; value: unknown }> {
  const at = path.lastIndexOf(".");
  const parents = at === -1 ? [{ value: body }] : valuesAt(body, path.slice(0, at)).map(({ parent, key }) => ({ value: parent[key] }));
  const key = path.slice(at + 1);
  return parents
    .filter((p): p is { value: Record<string, unknown> } => typeof p.value === "object" && p.value !== null && !Array.isArray(p.value))
    .map((p) => ({ present: key in p.value, value: p.value[key] }));
}

/** Members the catalogue says the response carries, missing or of another type. */
interface StatedMember {
  statement: string;
  quote: string;
  path: string;
  type?: string;
}

const statedMembers = new WeakMap<Catalogue, Map<string, StatedMember[]>>();

/** The members the catalogue says a response carries, per operation and status (read once). */
function membersStated(catalogue: Catalogue, where: Located): StatedMember[] {
  let byResponse = statedMembers.get(catalogue);
  if (!byResponse) statedMembers.set(catalogue, (byResponse = new Map()));
  const key = `${where.family}/${where.operationId}/${where.status}`;
  let found = byResponse.get(key);
  if (found) return found;
  found = [];
  for (const statement of catalogue.statements) {
    if (!statement.wire) continue;
    for (const encoding of checksFor(statement, where.family)) {
      const e = encoding as unknown as Record<string, unknown>;
      if (e.check !== "property" || e.required !== true || e.request === true || typeof e.path !== "string" || typeof e.schema === "string") continue;
      if (!operationMatches(where.contract, e.operation, e.methods, where.operationId) || !statusMatches(e.status, where.status)) continue;
      found.push({ statement: statement.id, quote: statement.quote, path: e.path, type: typeof e.type === "string" ? e.type : undefined });
    }
  }
  byResponse.set(key, found);
  return found;
}

/** Members the catalogue says the response carries, missing or of another type. */
export function statedMemberFindings(catalogue: Catalogue, where: Located, body: unknown): Finding[] {
  if (typeof body !== "object" || body === null) return [];
  const findings: Finding[] = [];
  for (const { statement, quote, path, type } of membersStated(catalogue, where)) {
    for (const member of presence(body, path)) {
      if (!member.present) findings.push({ place: "body", path, keyword: "required", expected: `${path} (the document: "${quote}")`, seen: "(absent)", statement });
      else if (type && JSON_TYPES[type] && !JSON_TYPES[type](member.value)) findings.push({ place: "body", path, keyword: "type", expected: `${path} of type ${type}`, seen: JSON.stringify(member.value), statement });
    }
  }
  return findings;
}

/**
 * The error code the catalogue states for a refusal of this operation and status, when the
 * statement names the parameter the request broke.
 */
export function statedRefusals(catalogue: Catalogue, where: Located, parameter: string): Array<{ statement: string; errorCode: string }> {
  const found: Array<{ statement: string; errorCode: string }> = [];
  for (const statement of catalogue.statements) {
    if (!statement.wire || !statement.quote.includes(parameter)) continue;
    for (const encoding of checksFor(statement, where.family)) {
      const e = encoding as unknown as Record<string, unknown>;
      if (e.check !== "response" || typeof e.errorCode !== "string") continue;
      if (operationMatches(where.contract, e.operation, e.methods, where.operationId) && statusMatches(e.status, where.status)) found.push({ statement: statement.id, errorCode: e.errorCode });
    }
  }
  return found;
}
