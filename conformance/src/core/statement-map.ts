/**
 * Which statements of the catalogue (spec/statements.yaml) a check enforces, derived from how
 * the catalogue says each statement is encoded in the OpenAPI: a check of the 201 response of
 * createCharge enforces every wire statement encoded in that response's schema, headers or
 * error codes; a 401 check enforces the security scheme's statements; and so on.
 *
 * Only statements marked `wire: true` are mapped (the others cannot be observed in HTTP
 * exchanges). Descriptions are never evidence: a statement encoded only in prose maps to no
 * response check (behaviour scenarios name such statements themselves).
 */
import { existsSync, statSync } from "node:fs";
import type { EncodingCheck } from "@payment-collection/contract/encoding/index.ts";
import { checksFor, loadStatements, STATEMENTS_PATH, type Statement } from "@payment-collection/contract/statements.ts";
import { schemasReachedBy, type FamilyContract, type FamilyId } from "@payment-collection/contract/model/index.ts";

export interface Catalogue {
  statements: Statement[];
  byId: Map<string, Statement>;
  /** Why the catalogue is empty or partial (missing file, malformed entries). */
  problems: string[];
}

/**
 * Reading and validating the catalogue takes a noticeable part of a second, and every run (and
 * the traffic proxy) reads it: the statements are kept per file version (path, modification
 * time, size), and each caller gets its own lists over them.
 */
const loaded = new Map<string, { statements: Statement[]; problems: string[] }>();

/** Loads the catalogue; a missing or malformed one yields an empty catalogue and a problem. */
export function loadCatalogue(path: string = STATEMENTS_PATH): Catalogue {
  if (!existsSync(path)) return { statements: [], byId: new Map(), problems: [`statement catalogue ${path} not found`] };
  const { mtimeMs, size } = statSync(path);
  const version = `${path}@${mtimeMs}:${size}`;
  let entry = loaded.get(version);
  if (!entry) {
    try {
      entry = { statements: loadStatements(path), problems: [] };
    } catch (error) {
      entry = { statements: [], problems: [(error as Error).message.split("\n").slice(0, 5).join("\n")] };
    }
    loaded.set(version, entry);
  }
  return { statements: [...entry.statements], byId: new Map(entry.statements.map((s) => [s.id, s])), problems: [...entry.problems] };
}

/** What a check targets, as far as statements are concerned. */
export interface CheckTarget {
  family: FamilyId;
  operationId: string;
  status: string;
  /** The stated error code the check expects, if any. */
  errorCode?: string;
}

/** Whether a catalogue status selector (`201`, `4xx`, `error`, `*`, or a list) takes a status. */
export function statusMatches(selector: unknown, status: string): boolean {
  const selectors = selector === undefined ? ["*"] : (Array.isArray(selector) ? selector : [selector]).map((s) => String(s).toLowerCase());
  return selectors.some((s) => {
    if (s === "*") return true;
    if (s === "error") return /^[45]/.test(status);
    if (/^[1-5]xx$/.test(s)) return status.startsWith(s[0]!);
    return s === status;
  });
}

/** Whether a catalogue operation selector (an operationId, or `*` with optional methods) takes an operation. */
export function operationMatches(contract: FamilyContract, operation: unknown, methods: unknown, operationId: string): boolean {
  if (operation === "*") {
    if (!Array.isArray(methods)) return true;
    const op = contract.operations.find((o) => o.operationId === operationId);
    return !!op && methods.map((m) => String(m).toUpperCase()).includes(op.method);
  }
  return operation === operationId;
}

const isSuccess = (status: string) => status.startsWith("2");
/** Checks whose request exercises the request side of an operation: the accepted and the refused one. */
const exercisesRequest = (status: string) => isSuccess(status) || status === "400";

/** Whether one encoding check of a statement is evidence that the given check enforces it. */
function encodingMatches(contract: FamilyContract, enc: EncodingCheck, target: CheckTarget): boolean {
  const e = enc as EncodingCheck & Record<string, unknown>;
  const { operationId, status } = target;
  switch (e.check) {
    case "response":
      if (!operationMatches(contract, e.operation, e.methods, operationId)) return false;
      if (e.errorCode !== undefined) return e.errorCode === target.errorCode && statusMatches(e.status, status);
      return statusMatches(e.status, status);
    case "response-header":
      return operationMatches(contract, e.operation, e.methods, operationId) && statusMatches(e.status, status);
    case "property":
    case "enum": {
      if (typeof e.schema === "string") return schemasReachedBy(contract, operationId, status).has(e.schema);
      if (!operationMatches(contract, e.operation, e.methods, operationId)) return false;
      if (e.request === true) return exercisesRequest(status);
      return statusMatches(e.status, status);
    }
    case "parameter":
    case "request-body":
      return e.operation !== "*" && e.operation === operationId && exercisesRequest(status);
    case "operation": {
      const op = contract.operations.find((o) => o.operationId === operationId);
      return !!op && op.method === String(e.method).toUpperCase() && op.path === e.path && isSuccess(status);
    }
    case "security-scheme":
      return status === "401";
    case "required-scope":
      return e.operation === operationId && (status === "403" || isSuccess(status));
    case "content-types":
      return true;
    case "property-names":
      return true;
    default:
      return false;
  }
}

/**
 * A rule about a request parameter of every operation ("the key must never be sent in a URL
 * query", "write operations require the Idempotency-Key header") is not shown by the answer to
 * one request: such statements are left to behaviour scenarios.
 */
function isCrossCutting(statement: Statement, family: FamilyId): boolean {
  return checksFor(statement, family).some((enc) => enc.check === "parameter" && (enc as { operation?: string }).operation === "*");
}

/**
 * The encodings that are evidence for a statement. A statement about an error code ("when the
 * key is absent, 400 IDEMPOTENCY_KEY_REQUIRED") is shown by the response carrying that code
 * only, not by every request that sends the parameter it also names.
 */
function evidence(statement: Statement, family: FamilyId): EncodingCheck[] {
  const encodings = checksFor(statement, family);
  const errorCodes = encodings.filter((enc) => enc.check === "response" && (enc as { errorCode?: string }).errorCode !== undefined);
  return errorCodes.length > 0 ? errorCodes : encodings;
}

/** Ids of the wire statements a check enforces, in catalogue order. */
export function statementsFor(catalogue: Catalogue, contract: FamilyContract, target: CheckTarget): string[] {
  // Asked once per result (a run judges thousands, most of the same few responses): each
  // (catalogue, contract, response) is looked up in the catalogue once.
  const byContract = STATEMENTS_FOR.get(catalogue) ?? new WeakMap<FamilyContract, Map<string, string[]>>();
  STATEMENTS_FOR.set(catalogue, byContract);
  const known = byContract.get(contract) ?? new Map<string, string[]>();
  byContract.set(contract, known);
  const key = `${target.family} ${target.operationId} ${target.status} ${target.errorCode ?? ""}`;
  let ids = known.get(key);
  if (!ids) {
    const family = target.family;
    ids = catalogue.statements
      .filter((s) => s.wire && !isCrossCutting(s, family))
      .filter((s) => evidence(s, family).some((enc) => encodingMatches(contract, enc, target)))
      .map((s) => s.id);
    known.set(key, ids);
  }
  return [...ids];
}

const STATEMENTS_FOR = new WeakMap<Catalogue, WeakMap<FamilyContract, Map<string, string[]>>>();

/** A member the document says a response does not carry ("they carry no phoneNumber"). */
export interface AbsentMember {
  statement: string;
  /** Dotted path from the body root; `[]` steps into array items. */
  path: string;
}

/**
 * Members that must be absent from a response, read from the catalogue's `absent: true`
 * property checks. Open schemas allow unknown members, so the schema alone cannot say this.
 */
export function absentMembers(catalogue: Catalogue, contract: FamilyContract, target: CheckTarget): AbsentMember[] {
  const family = target.family;
  const found: AbsentMember[] = [];
  for (const statement of catalogue.statements) {
    if (!statement.wire) continue;
    for (const enc of checksFor(statement, family)) {
      const e = enc as EncodingCheck & Record<string, unknown>;
      if (e.check !== "property" || e.absent !== true || e.request === true || typeof e.path !== "string") continue;
      if (typeof e.schema === "string" || !operationMatches(contract, e.operation, e.methods, target.operationId)) continue;
      if (statusMatches(e.status, target.status)) found.push({ statement: statement.id, path: e.path });
    }
  }
  return found;
}

/** Values found at a dotted path (`[]` fans out over array items). */
export function valuesAt(value: unknown, path: string): Array<{ parent: Record<string, unknown>; key: string }> {
  const segments = path.split(".").filter(Boolean);
  let nodes: unknown[] = [value];
  for (const [index, raw] of segments.entries()) {
    const isLast = index === segments.length - 1;
    const key = raw.replace(/\[\]$/, "");
    const fanOut = raw.endsWith("[]");
    if (isLast && !fanOut) {
      return nodes
        .filter((n): n is Record<string, unknown> => typeof n === "object" && n !== null && !Array.isArray(n) && key in n)
        .map((parent) => ({ parent, key }));
    }
    nodes = nodes.flatMap((n) => {
      if (typeof n !== "object" || n === null || Array.isArray(n)) return [];
      const next = (n as Record<string, unknown>)[key];
      return fanOut ? (Array.isArray(next) ? next : []) : [next];
    });
  }
  return [];
}

/** A pattern every member name of a family's bodies must match ("All request and response fields are snake_case"). */
export interface NamingRule {
  statement: string;
  pattern: RegExp;
}

/** The naming rules of a family, read from the catalogue's `property-names` checks. */
export function namingRules(catalogue: Catalogue, family: FamilyId): NamingRule[] {
  return catalogue.statements
    .filter((s) => s.wire)
    .flatMap((s) =>
      checksFor(s, family)
        .filter((enc) => enc.check === "property-names")
        .map((enc) => ({ statement: s.id, pattern: new RegExp(String((enc as { matches?: string }).matches)) })),
    );
}

/** Member names of a JSON value, with the dotted path of each (array items as `[]`). */
export function memberNames(value: unknown, path = ""): Array<{ name: string; path: string }> {
  if (Array.isArray(value)) return value.flatMap((item) => memberNames(item, `${path}[]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([name, inner]) => {
    const at = path ? `${path}.${name}` : name;
    return [{ name, path: at }, ...memberNames(inner, at)];
  });
}

/**
 * Wire statements the catalogue encodes as members of an operation's request or responses
 * (`reference`, `pix.br_code`...), for the top-level members given: a check comparing those
 * members enforces them.
 */
export function memberStatements(catalogue: Catalogue, family: FamilyId, operationId: string, members: string[]): string[] {
  const heads = new Set(members.map((m) => m.split(".")[0]));
  return catalogue.statements
    .filter((s) => s.wire)
    .filter((s) =>
      checksFor(s, family).some((enc) => {
        const e = enc as EncodingCheck & Record<string, unknown>;
        return (e.check === "property" || e.check === "enum") && e.operation === operationId && typeof e.path === "string" && heads.has(e.path.split(".")[0]!.replace(/\[\]$/, ""));
      }),
    )
    .map((s) => s.id);
}
