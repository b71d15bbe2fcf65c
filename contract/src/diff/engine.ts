/**
 * The diff engine: walks two OpenAPI documents (3.0 or 3.1, referenced or dereferenced) side
 * by side, operation by operation, and lets each rule family classify what changed.
 * Operations are paired by method and path template (parameter names ignored: `/x/{id}` and
 * `/x/{chargeId}` are one path); an operation that vanished from one path while an operation
 * with its operationId and method appeared on another is reported as moved.
 */
import { isObject, type Json } from "../model/json.ts";
import { child, DiffContext, entriesOf, type Loc } from "./context.ts";
import { compareSchemas } from "./schema-walk.ts";
import { RULES as DOCUMENT } from "./rules/document.ts";
import { RULES as OPERATIONS } from "./rules/operations.ts";
import { compareParameters, parametersOf } from "./rules/parameters.ts";
import { compareRequestBody } from "./rules/request-body.ts";
import { compareResponses, RULES as RESPONSES } from "./rules/responses.ts";
import { compareSecurity, compareSecuritySchemes } from "./rules/security.ts";
import { joinPointer, type Change } from "./types.ts";

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export interface DiffOptions {
  /** Name of the family the documents describe (reported with every change). */
  family?: string;
}

interface OperationEntry {
  key: string;
  method: string;
  path: string;
  template: string;
  operationId?: string;
  pathItem: Loc;
  operation: Loc;
}

const templateOf = (path: string): string => path.replace(/\{[^}]*\}/g, "{}");

/**
 * Where a document keeps its webhooks: `webhooks` (OpenAPI 3.1); a 3.0 document cannot have
 * them and keeps them in `x-webhooks` (as this contract's 3.0 variant does), read alike so that
 * a 3.0 document compared with a 3.1 one shows no webhook as added or removed.
 */
export function webhooksKey(document: Json): "webhooks" | "x-webhooks" {
  return document.webhooks === undefined && typeof document.openapi === "string" && document.openapi.startsWith("3.0.") && isObject(document["x-webhooks"]) ? "x-webhooks" : "webhooks";
}

function operationsOf(ctx: DiffContext, which: "base" | "head", section: "paths" | "webhooks"): Map<string, OperationEntry> {
  const document = which === "base" ? ctx.base : ctx.head;
  const key = section === "webhooks" ? webhooksKey(document) : section;
  const out = new Map<string, OperationEntry>();
  for (const [path] of entriesOf(document[key])) {
    const pathItem = ctx.resolve(which, { node: (document[key] as Json)[path], pointer: joinPointer("", key, path) });
    for (const method of HTTP_METHODS) {
      const operation = child(pathItem, method);
      if (!isObject(operation.node)) continue;
      const template = section === "paths" ? templateOf(path) : path;
      const entryKey = `${method} ${template}`;
      const operationId = typeof operation.node.operationId === "string" ? operation.node.operationId : undefined;
      out.set(entryKey, { key: entryKey, method, path, template, operationId, pathItem, operation });
    }
  }
  return out;
}

const label = (entry: OperationEntry, webhook: boolean): string => (webhook ? `WEBHOOK ${entry.path}` : `${entry.method.toUpperCase()} ${entry.path}`);

/** The `/vN` prefix of a path (`/v1`, `/api/v2`), if it has one. */
export function pathVersionOf(path: string): string | undefined {
  const match = /^(.*?\/v\d+)(?:\/|$)/.exec(path);
  return match?.[1];
}

export function diffDocuments(base: Json, head: Json, options: DiffOptions = {}): Change[] {
  const ctx = new DiffContext(base, head, options.family ?? "document");
  const version = (doc: Json): unknown => (isObject(doc.info) ? doc.info.version : undefined);
  if (version(base) !== version(head)) {
    ctx.emit(DOCUMENT.infoVersionChanged, { node: version(head), pointer: "/info/version" }, `info.version ${String(version(base))} -> ${String(version(head))}`);
  }
  compareSecuritySchemes(ctx);
  comparePaths(ctx);
  compareWebhooks(ctx);
  return ctx.changes;
}

function comparePaths(ctx: DiffContext): void {
  const before = operationsOf(ctx, "base", "paths");
  const after = operationsOf(ctx, "head", "paths");
  const templates = (ops: Map<string, OperationEntry>): Set<string> => new Set([...ops.values()].map((op) => op.template));
  const baseTemplates = templates(before);
  const headTemplates = templates(after);
  const movedTo = new Set<string>();

  for (const [key, op] of before) {
    const other = after.get(key);
    if (other) {
      ctx.operation = label(other, false);
      compareOperation(ctx, op, other);
      continue;
    }
    ctx.operation = label(op, false);
    const moved = op.operationId
      ? [...after.values()].find((candidate) => candidate.operationId === op.operationId && candidate.method === op.method && !before.has(candidate.key))
      : undefined;
    if (moved) {
      movedTo.add(moved.key);
      ctx.emit(OPERATIONS.pathRenamed, op.operation, `${op.method.toUpperCase()} ${op.path} moved to ${moved.path}`);
    } else if (headTemplates.has(op.template)) {
      ctx.emit(OPERATIONS.operationRemoved, op.operation, `${op.method.toUpperCase()} ${op.path}: operation removed`);
    } else {
      ctx.emit(OPERATIONS.pathRemoved, op.operation, `${op.method.toUpperCase()} ${op.path}: path removed`);
    }
  }
  for (const [key, op] of after) {
    if (before.has(key) || movedTo.has(key)) continue;
    ctx.operation = label(op, false);
    if (baseTemplates.has(op.template)) ctx.emit(OPERATIONS.operationAdded, op.operation, `${op.method.toUpperCase()} ${op.path}: new operation`);
    else ctx.emit(OPERATIONS.pathAdded, op.operation, `${op.method.toUpperCase()} ${op.path}: new endpoint`);
  }
  ctx.operation = undefined;

  const versions = (ops: Map<string, OperationEntry>): Set<string> => new Set([...ops.values()].map((op) => pathVersionOf(op.path)).filter((v): v is string => v !== undefined));
  const baseVersions = versions(before);
  for (const prefix of versions(after)) {
    if (!baseVersions.has(prefix)) ctx.emit(DOCUMENT.pathVersionAdded, { node: undefined, pointer: "/paths" }, `new path version ${prefix}`);
  }
}

function compareOperation(ctx: DiffContext, base: OperationEntry, head: OperationEntry): void {
  const b = base.operation.node as Json;
  const h = head.operation.node as Json;
  if (b.operationId !== h.operationId) ctx.emit(OPERATIONS.operationIdChanged, child(head.operation, "operationId"), `operationId ${String(b.operationId ?? "(none)")} -> ${String(h.operationId ?? "(none)")}`);
  if ((b.deprecated === true) !== (h.deprecated === true)) {
    ctx.emit(h.deprecated === true ? OPERATIONS.deprecated : OPERATIONS.undeprecated, child(head.operation, "deprecated"), h.deprecated === true ? "operation deprecated" : "operation no longer deprecated");
  }
  if (b.summary !== h.summary || b.description !== h.description) {
    ctx.emit(OPERATIONS.documentationChanged, head.operation, `${b.summary !== h.summary ? "summary" : "description"} changed`);
  }
  compareParameters(ctx, parametersOf(ctx, "base", base.pathItem, base.operation), parametersOf(ctx, "head", head.pathItem, head.operation));
  compareRequestBody(ctx, base.operation, head.operation);
  compareResponses(ctx, base.operation, head.operation);
  compareSecurity(ctx, base.operation, head.operation);
}

/**
 * Webhooks flow the other way: the service sends the request. Its body and headers are
 * compared as responses (what clients receive); the receiver's answer is not compared.
 */
function compareWebhooks(ctx: DiffContext): void {
  const before = operationsOf(ctx, "base", "webhooks");
  const after = operationsOf(ctx, "head", "webhooks");
  for (const [key, op] of before) {
    const other = after.get(key);
    ctx.operation = label(other ?? op, true);
    if (!other) {
      ctx.emit(OPERATIONS.webhookRemoved, op.operation, `webhook ${op.path}: no longer sent`);
      continue;
    }
    const params = (which: "base" | "head", entry: OperationEntry) => parametersOf(ctx, which, entry.pathItem, entry.operation);
    const baseParams = params("base", op);
    const headParams = params("head", other);
    for (const [name, param] of baseParams) {
      const match = headParams.get(name);
      if (!match) ctx.emit(RESPONSES.headerRemoved, param.loc, `webhook ${op.path}: header \`${param.name}\` removed`);
      else compareSchemas(ctx, { side: "response", where: `webhook header \`${param.name}\``, path: "", errorResponse: false, errorCodeField: false }, child(param.loc, "schema"), child(match.loc, "schema"));
    }
    for (const [name, param] of headParams) if (!baseParams.has(name)) ctx.emit(RESPONSES.headerAdded, param.loc, `webhook ${op.path}: header \`${param.name}\` added`);
    const content = (which: "base" | "head", entry: OperationEntry): Loc => child(ctx.resolve(which, child(entry.operation, "requestBody")), "content");
    const baseContent = content("base", op);
    const headContent = content("head", other);
    for (const [type] of entriesOf(baseContent.node)) {
      if (!isObject(headContent.node) || !(type in headContent.node)) {
        ctx.emit(RESPONSES.mediaTypeRemoved, child(baseContent, type), `webhook ${op.path}: payload media type ${type} removed`);
        continue;
      }
      compareSchemas(ctx, { side: "response", where: "webhook payload", path: "", errorResponse: false, errorCodeField: false }, child(baseContent, type, "schema"), child(headContent, type, "schema"));
    }
  }
  for (const [key, op] of after) {
    if (before.has(key)) continue;
    ctx.operation = label(op, true);
    ctx.emit(OPERATIONS.webhookAdded, op.operation, `webhook ${op.path}: new event`);
  }
  ctx.operation = undefined;
}
