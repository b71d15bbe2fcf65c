/**
 * Names a finding by what it breaks: the statement of the catalogue (spec/statements.yaml) whose
 * encoding covers the failing element, or, under `full`, the decision (docs/decisions.md) that
 * the failing element carries. Derived from the catalogue's encodings and the contract's
 * markings, as the suites' own statement map is (core/statement-map.ts).
 */
import { checksFor } from "@payment-collection/contract/statements.ts";
import { decidedKeywordsOf, decisionOf, isObject, type ContractOperation, type FamilyContract, type FamilyId, type Json } from "@payment-collection/contract/model/index.ts";
import { statementsFor, type Catalogue } from "../core/statement-map.ts";
import type { Profile } from "../core/profiles/index.ts";

/** Where in the exchange a finding is. */
export type FindingPlace = "status" | "content-type" | "header" | "body" | "path" | "parameter" | "request-body";

export interface Finding {
  place: FindingPlace;
  /** Dotted member path (array indexes dropped) for body findings; the name for headers and parameters. */
  path?: string;
  /** The schema keyword that failed (`format`, `required`, `type`...). */
  keyword?: string;
  expected: string;
  seen: string;
  /** A statement the finding already knows (an absent member names its statement). */
  statement?: string;
}

export interface Naming {
  /** A statement id, or a decision id (`D12`), or `contract` when neither applies. */
  id: string;
  kind: "statement" | "decision" | "contract";
}

/** Segments of a dotted path, `[]` markers dropped. */
const segmentsOf = (path: string) => path.split(".").map((s) => s.replace(/\[\]$/, "")).filter(Boolean);

/** How many segments of `encoded` the finding's path covers: 0 when it does not reach it. */
function pathScore(findingPath: string, encoded: string, anchored: boolean): number {
  const found = segmentsOf(findingPath);
  const want = segmentsOf(encoded);
  if (want.length === 0) return anchored ? 0.5 : 0;
  const startsAt = (at: number) => want.every((segment, i) => found[at + i] === segment);
  if (anchored) return startsAt(0) ? want.length : 0;
  // A component schema's path is relative to wherever the body holds the component.
  for (let at = 0; at + want.length <= found.length; at++) if (startsAt(at)) return want.length;
  return 0;
}

/** The member lists an encoding states for a body (which members it has, which it requires). */
const MEMBER_LISTS = ["propertiesInclude", "requiredInclude", "requiredSubsetOf", "requiredExactly"] as const;

/**
 * How well a body's member-list statement (`propertiesInclude: [amount, method, ...]`, no path)
 * names a finding: a member it lists (higher for a missing member of a required list); an
 * unknown member of the body, when the statement lists the body's members. 0 otherwise: a
 * statement about another part of the exchange never names a member's finding.
 */
function memberListScore(finding: Finding, encoding: Record<string, unknown>): number {
  // The lists are of the body's own members: a finding deeper in the body is another statement's.
  const segments = segmentsOf(finding.path ?? "");
  const member = segments[0];
  if (segments.length !== 1 || member === "(root)") return 0;
  const listed = (key: (typeof MEMBER_LISTS)[number]) => Array.isArray(encoding[key]) && (encoding[key] as unknown[]).includes(member);
  if (finding.keyword === "required" && (listed("requiredInclude") || listed("requiredSubsetOf") || listed("requiredExactly"))) return 0.95;
  if (MEMBER_LISTS.some(listed)) return 0.9;
  if (finding.keyword === "additionalProperties" && Array.isArray(encoding.propertiesInclude)) return 0.75;
  return 0;
}

/** The rules that span exchanges. */
export type CrossRule = "idempotency" | "tenant-isolation" | "rate-limit-window" | "created-then-read" | "authentication";

/** A finding of a rule that spans exchanges. */
export interface CrossFinding extends Finding {
  rule: CrossRule;
  naming: Naming;
}

/** The markings met walking a schema along a member path: the last decision on the way. */
function decisionAlong(schema: unknown, path: string, keyword: string | undefined): { onNode?: string; onWay?: string } {
  let node: unknown = schema;
  let onWay: string | undefined;
  const visit = (n: unknown): string | undefined => {
    const decision = decisionOf(n) ?? decidedKeywordsOf(n).find((d) => keyword === undefined || d.keywords.includes(keyword) || d.keywords.length === 0)?.decision;
    return decision;
  };
  const step = (n: unknown, name: string): unknown => {
    if (!isObject(n)) return undefined;
    if (isObject(n.properties) && name in n.properties) return n.properties[name];
    for (const combinator of ["allOf", "anyOf", "oneOf"]) {
      for (const member of Array.isArray(n[combinator]) ? (n[combinator] as unknown[]) : []) {
        const found = step(member, name);
        if (found !== undefined) return found;
      }
    }
    if (isObject(n.items)) return step(n.items, name);
    return undefined;
  };
  for (const segment of segmentsOf(path)) {
    const here = visit(node);
    if (here && decisionOf(node)) onWay = here;
    node = step(node, segment);
    if (node === undefined) return { onWay };
  }
  return { onNode: visit(node), onWay };
}

export interface NamingTarget {
  family: FamilyId;
  contract: FamilyContract;
  op: ContractOperation;
  /** The documented status the exchange fell under (for request findings: the operation's success). */
  status: string;
  errorCode?: string;
  /** The schema the finding's path is in (response or request body). */
  schema?: Json;
  profile: Profile;
  /** A decision marking the whole response or parameter carries. */
  decision?: string;
  /** The aspects of the response that decision fixed (`status`, `content-type`, `body`). */
  decidedAspects?: string[];
}

/** The statement or decision a finding breaks. */
export function nameFinding(catalogue: Catalogue, target: NamingTarget, finding: Finding): Naming {
  if (finding.statement) return { id: finding.statement, kind: "statement" };
  const request = finding.place === "parameter" || finding.place === "request-body" || finding.place === "path";
  if (target.profile === "full") {
    // A status or media type the project decided is named by its decision.
    if (target.decision && (finding.place === "status" || finding.place === "content-type") && target.decidedAspects?.includes(finding.place)) return { id: target.decision, kind: "decision" };
    const marked = finding.path && finding.place !== "header" && finding.place !== "parameter" ? decisionAlong(target.schema, finding.path, finding.keyword) : {};
    if (marked.onNode) return { id: marked.onNode, kind: "decision" };
    if (marked.onWay) return { id: marked.onWay, kind: "decision" };
  }
  const candidates = statementsFor(catalogue, target.contract, { family: target.family, operationId: target.op.operationId, status: target.status, errorCode: target.errorCode });
  let best: { id: string; score: number } | undefined;
  for (const id of candidates) {
    const statement = catalogue.byId.get(id)!;
    for (const encoding of checksFor(statement, target.family)) {
      const e = encoding as unknown as Record<string, unknown>;
      let score = 0;
      if ((finding.place === "body" || finding.place === "request-body") && (e.check === "property" || e.check === "enum")) {
        if ((e.request === true) !== request) continue;
        score = typeof e.path === "string" ? pathScore(finding.path ?? "", e.path, typeof e.schema !== "string") : memberListScore(finding, e);
      } else if (finding.place === "header" && e.check === "response-header" && String(e.name).toLowerCase() === finding.path?.toLowerCase()) {
        score = 10;
      } else if (finding.place === "parameter" && e.check === "parameter" && String(e.name).toLowerCase() === finding.path?.toLowerCase()) {
        score = 10;
      } else if (finding.place === "parameter" && e.check === "operation") {
        // A parameter the operation does not define breaks the endpoint's published request.
        score = 1;
      } else if ((finding.place === "status" || finding.place === "content-type") && (e.check === "response" || e.check === "operation" || e.check === "content-types")) {
        score = e.check === "response" ? 2 : 1;
      } else if (finding.place === "request-body" && e.check === "request-body") {
        // The body as a whole (present, JSON) breaks any statement that declares it. A member's
        // finding breaks the statement of the body (an endpoint's row: `body {reason: string}`),
        // never one of a header's (`Content-Type: application/json`).
        if (finding.path === "(root)") score = 0.25;
        else if (statement.kind !== "header") score = 0.2;
      }
      if (score > 0 && (!best || score > best.score)) best = { id, score };
    }
  }
  if (best) return { id: best.id, kind: "statement" };
  if (target.profile === "full" && target.decision) return { id: target.decision, kind: "decision" };
  return { id: "contract", kind: "contract" };
}
