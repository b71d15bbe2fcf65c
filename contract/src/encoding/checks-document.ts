/**
 * Checks of the document as a whole: security schemes and required scopes, servers,
 * descriptions (phrases the interface description requires) and the paths.
 */
import { asList, isObject, operationsOf, pathTemplatesOf, type Json } from "../model/index.ts";
import type { DescriptionCheck, OpenApiDocument, PathsCheck, RequiredScopeCheck, SecuritySchemeCheck, ServerCheck } from "./check-types.ts";
import { findParameter, locateRoots, matchingSchemes, securitySchemes, selectOperations, selectResponses, servers } from "./locate.ts";
import { descend, viewOf } from "./schema-view.ts";

export function checkSecurityScheme(doc: OpenApiDocument, c: SecuritySchemeCheck): string[] {
  const matches = matchingSchemes(doc, c);
  if (matches.length === 0) {
    const have = securitySchemes(doc).map(([k, s]) => `${k} (${String(s.type)} ${String(s.in)} ${String(s.name)})`);
    return [`no security scheme ${c.type} ${c.in ?? ""} ${c.name ?? ""}; declared: ${have.join(", ") || "none"}`];
  }
  if (!c.everyOperation) return [];
  const keys = matches.map(([k]) => k);
  const problems: string[] = [];
  for (const op of operationsOf(doc)) {
    const requirements = asList((op.operation.security ?? doc.security) as Json[] | undefined);
    // Every alternative must name the scheme; an empty alternative `{}` makes the key optional.
    const enforced = requirements.length > 0 && requirements.every((req) => isObject(req) && keys.some((k) => k in req));
    if (!enforced) problems.push(`${op.operationId}: does not require ${keys.join("/")}`);
  }
  return problems;
}

export function checkRequiredScope(doc: OpenApiDocument, c: RequiredScopeCheck): string[] {
  const { ops, problems } = selectOperations(doc, c.operation, undefined);
  for (const op of ops) {
    const declared = asList(op.operation["x-required-scopes"] as string[] | undefined);
    const requirements = asList((op.operation.security ?? doc.security) as Json[] | undefined);
    const inSecurity = requirements.some((req) => isObject(req) && Object.values(req).some((scopes) => asList(scopes as string[]).includes(c.scope)));
    if (!declared.includes(c.scope) && !inSecurity) problems.push(`${op.operationId}: scope ${c.scope} is not required`);
  }
  return problems;
}

export function checkServer(doc: OpenApiDocument, c: ServerCheck): string[] {
  const declared = servers(doc);
  const problems: string[] = [];
  if (c.urls !== undefined) {
    const got = declared.map((s) => String(s.url)).sort();
    const want = [...c.urls].sort();
    if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`servers ${JSON.stringify(got)}, expected exactly ${JSON.stringify(want)}`);
  }
  if (c.url !== undefined) {
    const server = declared.find((s) => s.url === c.url);
    if (!server) return [...problems, `no server ${c.url}`];
    const variables = isObject(server.variables) ? server.variables : {};
    for (const name of c.variables ?? []) if (!(name in variables)) problems.push(`server ${c.url}: variable ${name} not declared`);
    if (c.descriptionIncludes !== undefined && !phraseIn([server.description], c.descriptionIncludes)) {
      problems.push(`server ${c.url}: description lacks "${c.descriptionIncludes}"`);
    }
  }
  return problems;
}

/**
 * Phrase matching for description checks: case-insensitive, whitespace collapsed, markdown
 * code/emphasis markers (` * _ at word edges) ignored, so that `ACTIVE` matches ACTIVE.
 */
export function normalisePhrase(text: string): string {
  return text
    .replace(/`/g, "")
    .replace(/(^|\s)[*_]+|[*_]+(?=\s|$|[.,;:])/g, "$1")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

function phraseIn(texts: unknown[], phrase: string): boolean {
  const wanted = normalisePhrase(phrase);
  return texts.some((t) => typeof t === "string" && normalisePhrase(t).includes(wanted));
}

function descriptionTexts(doc: OpenApiDocument, c: DescriptionCheck): { texts: Array<{ label: string; texts: unknown[] }>; problems: string[] } {
  switch (c.target) {
    case "info": {
      const info = isObject(doc.info) ? doc.info : {};
      return { texts: [{ label: "info", texts: [info.description, info.summary] }], problems: [] };
    }
    case "operation": {
      const { ops, problems } = selectOperations(doc, c.operation, c.methods);
      return { texts: ops.map((op) => ({ label: op.operationId, texts: [op.operation.description, op.operation.summary] })), problems };
    }
    case "security-scheme": {
      const matches = matchingSchemes(doc, { name: c.name });
      return matches.length > 0
        ? { texts: matches.map(([k, s]) => ({ label: `security scheme ${k}`, texts: [s.description] })), problems: [] }
        : { texts: [], problems: [`no security scheme named ${c.name}`] };
    }
    case "server": {
      const server = servers(doc).find((s) => s.url === c.url);
      return server ? { texts: [{ label: `server ${c.url}`, texts: [server.description] }], problems: [] } : { texts: [], problems: [`no server ${c.url}`] };
    }
    case "parameter": {
      const { ops, problems } = selectOperations(doc, c.operation, c.methods);
      const texts: Array<{ label: string; texts: unknown[] }> = [];
      for (const op of ops) {
        const param = ["header", "query", "path", "cookie"].map((w) => findParameter(op, c.name ?? "", w)).find(Boolean);
        if (!param) problems.push(`${op.operationId}: no parameter ${c.name}`);
        else texts.push({ label: `${op.operationId} parameter ${c.name}`, texts: [param.description, ...viewOf(doc, param.schema).descriptions] });
      }
      return { texts, problems };
    }
    case "response": {
      const { ops, problems } = selectOperations(doc, c.operation, c.methods);
      const texts: Array<{ label: string; texts: unknown[] }> = [];
      for (const op of ops) {
        const selected = selectResponses(op, c.status);
        problems.push(...selected.problems);
        for (const r of selected.responses) texts.push({ label: `${op.operationId} ${r.status}`, texts: [r.response.description] });
      }
      return { texts, problems };
    }
    case "schema": {
      const { roots, problems } = locateRoots(doc, c);
      const texts: Array<{ label: string; texts: unknown[] }> = [];
      for (const root of roots) {
        const found = descend(doc, root.schema, c.path);
        if (!found.view) problems.push(`${root.label} ${c.path ?? ""}: missing`);
        else texts.push({ label: `${root.label} ${c.path ?? ""}`.trim(), texts: found.view.descriptions });
      }
      return { texts, problems };
    }
  }
}

export function checkDescription(doc: OpenApiDocument, c: DescriptionCheck): string[] {
  const { texts, problems } = descriptionTexts(doc, c);
  for (const entry of texts) {
    for (const phrase of asList(c.contains)) {
      if (!phraseIn(entry.texts, phrase)) problems.push(`${entry.label}: description lacks "${phrase}"`);
    }
  }
  if (texts.length === 0 && problems.length === 0) problems.push("no description matched the target");
  return problems;
}

export function checkPaths(doc: OpenApiDocument, c: PathsCheck): string[] {
  const pattern = new RegExp(c.matches);
  const paths = pathTemplatesOf(doc);
  if (paths.length === 0) return ["the document has no paths"];
  return paths.filter((p) => !pattern.test(p)).map((p) => `path ${p} does not match ${c.matches}`);
}

