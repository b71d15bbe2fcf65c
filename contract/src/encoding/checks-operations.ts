/**
 * Checks of operations and what they carry: the operation itself, its parameters, request
 * body, responses (status, media type, error code) and response headers.
 */
import { asList, deref, isObject, operationsOf } from "../model/index.ts";
import { assertSchema } from "./assertions.ts";
import type { OpenApiDocument, OperationCheck, ParameterCheck, RequestBodyCheck, ResponseCheck, ResponseHeaderCheck } from "./check-types.ts";
import { contentRoots, findParameter, selectOperations, selectResponses } from "./locate.ts";
import { admittedAt, viewOf } from "./schema-view.ts";

export function checkOperation(doc: OpenApiDocument, c: OperationCheck): string[] {
  const found = operationsOf(doc).find((op) => op.path === c.path && op.method === c.method.toUpperCase());
  if (!found) return [`no ${c.method.toUpperCase()} ${c.path}`];
  if (c.operationId !== undefined && found.operation.operationId !== c.operationId) {
    return [`${c.method.toUpperCase()} ${c.path} has operationId ${String(found.operation.operationId)}, expected ${c.operationId}`];
  }
  return [];
}

export function checkParameter(doc: OpenApiDocument, c: ParameterCheck): string[] {
  const { ops, problems } = selectOperations(doc, c.operation, c.methods);
  for (const op of ops) {
    const label = `${op.operationId} ${c.in} parameter ${c.name}`;
    const param = findParameter(op, c.name, c.in);
    if (c.absent) {
      if (param) problems.push(`${label}: present, should be absent`);
      continue;
    }
    if (!param) {
      problems.push(`${label}: missing`);
      continue;
    }
    const required = param.required === true;
    if (c.required !== undefined && required !== c.required) problems.push(`${label}: required is ${required}, expected ${c.required}`);
    const { required: _r, ...assertions } = c;
    problems.push(...assertSchema(doc, viewOf(doc, param.schema), assertions, label));
  }
  return problems;
}

export function checkRequestBody(doc: OpenApiDocument, c: RequestBodyCheck): string[] {
  const { ops, problems } = selectOperations(doc, c.operation, c.methods);
  for (const op of ops) {
    const body = deref(doc, op.operation.requestBody);
    if (!isObject(body)) {
      problems.push(`${op.operationId}: no request body`);
      continue;
    }
    const mediaTypes = isObject(body.content) ? Object.keys(body.content).map((m) => m.toLowerCase()) : [];
    if (c.contentType !== undefined && !mediaTypes.includes(c.contentType.toLowerCase())) {
      problems.push(`${op.operationId}: request body media types ${mediaTypes.join(", ") || "none"}, expected ${c.contentType}`);
    }
    if (c.required !== undefined && (body.required === true) !== c.required) problems.push(`${op.operationId}: request body required is ${body.required === true}`);
  }
  return problems;
}

export function checkResponse(doc: OpenApiDocument, c: ResponseCheck): string[] {
  const { ops, problems } = selectOperations(doc, c.operation, c.methods);
  for (const op of ops) {
    const selected = selectResponses(op, c.status);
    problems.push(...selected.problems);
    if (selected.responses.length === 0) {
      if (selected.problems.length === 0) problems.push(`${op.operationId}: no response matches ${JSON.stringify(c.status ?? "*")}`);
      continue;
    }
    const withMedia = selected.responses.filter((r) => {
      if (c.contentType === undefined) return true;
      const types = isObject(r.response.content) ? Object.keys(r.response.content).map((m) => m.toLowerCase()) : [];
      return types.includes(c.contentType.toLowerCase());
    });
    if (withMedia.length === 0) {
      problems.push(`${op.operationId}: no matching response is served as ${c.contentType}`);
      continue;
    }
    if (c.errorCode !== undefined) {
      const codePath = c.codePath ?? "code";
      const admits = withMedia.some((r) =>
        contentRoots(doc, r.response.content, c.contentType, "").some((root) =>
          admittedAt(doc, root.schema, codePath).some((v) => v === c.errorCode),
        ),
      );
      if (!admits) {
        const where = c.status === undefined ? "any response" : `response ${asList(c.status).join("/")}`;
        problems.push(`${op.operationId}: ${where} does not admit ${codePath} = ${c.errorCode}`);
      }
    } else if (c.status === undefined) {
      problems.push("a response check needs `status` or `errorCode`");
    }
  }
  return problems;
}

export function checkResponseHeader(doc: OpenApiDocument, c: ResponseHeaderCheck): string[] {
  const { ops, problems } = selectOperations(doc, c.operation, c.methods);
  let seen = 0;
  for (const op of ops) {
    const selected = selectResponses(op, c.status);
    problems.push(...(c.operation === "*" ? [] : selected.problems));
    for (const r of selected.responses) {
      seen += 1;
      const label = `${op.operationId} ${r.status} header ${c.name}`;
      const headers = isObject(r.response.headers) ? r.response.headers : {};
      const entry = Object.entries(headers).find(([n]) => n.toLowerCase() === c.name.toLowerCase());
      const header = entry ? deref(doc, entry[1]) : undefined;
      if (c.absent) {
        if (header) problems.push(`${label}: present, should be absent`);
        continue;
      }
      if (!isObject(header)) {
        problems.push(`${label}: missing`);
        continue;
      }
      const required = header.required === true;
      if (c.required !== undefined && required !== c.required) problems.push(`${label}: required is ${required}, expected ${c.required}`);
      const { required: _r, ...assertions } = c;
      problems.push(...assertSchema(doc, viewOf(doc, header.schema), assertions, label));
    }
  }
  if (seen === 0 && problems.length === 0) problems.push(`no response matches ${JSON.stringify(c.status)}`);
  return problems;
}

