/**
 * Tables of the overview page, derived from the generated OpenAPI rather than written by hand:
 * environments and base URLs (servers), authentication (security schemes and required
 * scopes), operations, and error codes with their HTTP statuses. The overview's Markdown
 * places them with directives such as `<!-- portal:error-codes -->`.
 */
import { escapeHtml } from "./html.ts";
import { decisionAnchor } from "./markdown.ts";
import { deref, isObject, operationsOf, type Json as JsonObject } from "@payment-collection/contract/model/index.ts";
import { redocOperationAnchor } from "./redoc-anchor.ts";
import type { ReferenceSource } from "./references.ts";

export interface TableContext {
  references: readonly ReferenceSource[];
  decisionsPage: string;
  /**
   * Error codes the interface description states, per reference id (from the statement
   * catalogue); null when the catalogue is missing.
   */
  statedCodes?: ReadonlyMap<string, ReadonlySet<string>> | null;
}

type Directive = (context: TableContext) => string;

function badge(context: TableContext, decision: string, detail?: string): string {
  return `<a class="decision-badge" href="${context.decisionsPage}#${decisionAnchor(decision)}">Project decision ${decision}${detail ? `: ${escapeHtml(detail)}` : ""}</a>`;
}

function table(headers: string[], rows: string[][]): string {
  // One HTML block without blank lines, so that Markdown passes it through untouched.
  const head = `<tr>${headers.map((header) => `<th>${header}</th>`).join("")}</tr>`;
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join("")}</tr>`).join("\n");
  return `<table>\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

function families(context: TableContext): ReferenceSource[] {
  return context.references.filter((reference) => !reference.sandboxOnly && reference.document);
}

function familyLink(reference: ReferenceSource): string {
  return `<a href="${reference.file}">${escapeHtml(reference.title)}</a>`;
}

const environments: Directive = (context) => {
  const rows: string[][] = [];
  for (const reference of families(context)) {
    const servers = Array.isArray(reference.document!.servers) ? (reference.document!.servers as JsonObject[]) : [];
    for (const server of servers) {
      const variables = isObject(server.variables) ? server.variables : {};
      const defaults = Object.entries(variables)
        .map(([name, variable]) => {
          if (!isObject(variable)) return "";
          const marking = variable["x-basis"] === "decision" && typeof variable["x-decision"] === "string" ? ` ${badge(context, variable["x-decision"], "placeholder")}` : "";
          return `<code>${escapeHtml(name)}</code> = <code>${escapeHtml(String(variable.default ?? ""))}</code>${marking}`;
        })
        .filter((text) => text.length > 0)
        .join("<br>");
      rows.push([familyLink(reference), escapeHtml(String(server.description ?? "")), `<code>${escapeHtml(String(server.url))}</code>`, defaults]);
    }
  }
  return table(["Family", "Environment", "Base URL", "Default in the contract"], rows);
};

const authentication: Directive = (context) => {
  const rows: string[][] = [];
  for (const reference of families(context)) {
    const document = reference.document!;
    const schemes = isObject(document.components) && isObject(document.components.securitySchemes) ? document.components.securitySchemes : {};
    const scoped = operationsOf(document)
      .filter((entry) => entry.requiredScopes.length > 0)
      .map((entry) => `<code>${entry.method} ${escapeHtml(entry.path)}</code> needs ${entry.requiredScopes.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(", ")}`);
    for (const scheme of Object.values(schemes)) {
      if (!isObject(scheme)) continue;
      const where = scheme.type === "apiKey" ? `header <code>${escapeHtml(String(scheme.name))}</code>` : escapeHtml(String(scheme.type));
      rows.push([familyLink(reference), where, scoped.length > 0 ? scoped.join("<br>") : "none named"]);
    }
  }
  return table(["Family", "API key sent in", "Scopes required by an operation"], rows);
};

const operations: Directive = (context) => {
  const rows: string[][] = [];
  for (const reference of families(context)) {
    for (const entry of operationsOf(reference.document!)) {
      const success = entry.responses.map((r) => r.status).filter((status) => status.startsWith("2"));
      rows.push([
        escapeHtml(reference.title),
        `<code>${entry.method.toUpperCase()}</code>`,
        `<code>${escapeHtml(entry.path)}</code>`,
        `<a href="${reference.file}#${redocOperationAnchor(entry)}">${escapeHtml(entry.summary || entry.operationId)}</a>`,
        success.join(", "),
      ]);
    }
  }
  return table(["Family", "Method", "Path", "Operation", "Success"], rows);
};

/** Decision ids marked on a schema node (`x-decision`, or `x-decided` entries naming enum/const). */
function codeDecisions(node: JsonObject): string[] {
  const ids: string[] = [];
  if (node["x-basis"] === "decision" && typeof node["x-decision"] === "string") ids.push(node["x-decision"]);
  if (Array.isArray(node["x-decided"])) {
    for (const entry of node["x-decided"] as Array<{ decision?: unknown; keywords?: unknown }>) {
      const keywords = Array.isArray(entry.keywords) ? entry.keywords : [];
      if (typeof entry.decision === "string" && (keywords.includes("enum") || keywords.includes("const"))) ids.push(entry.decision);
    }
  }
  return ids;
}

export interface ErrorCode {
  code: string;
  /** Decisions marked on the `code` property or on the error schema holding it. */
  decisions: string[];
}

/** Values of `code` / `errorCode` properties (enum or const) anywhere in an error body schema. */
export function errorCodesOf(document: JsonObject, schema: unknown, inherited: string[] = [], seen = new Set<unknown>()): ErrorCode[] {
  const node = deref<JsonObject>(document, schema);
  if (!isObject(node) || seen.has(node)) return [];
  seen.add(node);
  const here = [...inherited, ...(node["x-basis"] === "decision" && typeof node["x-decision"] === "string" ? [node["x-decision"]] : [])];
  const codes: ErrorCode[] = [];
  const properties = isObject(node.properties) ? node.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    const resolved = deref<JsonObject>(document, property);
    if ((name === "code" || name === "errorCode") && isObject(resolved)) {
      const values = [...(Array.isArray(resolved.enum) ? resolved.enum : []), ...(resolved.const !== undefined ? [resolved.const] : [])];
      const decisions = [...here, ...codeDecisions(resolved), ...(isObject(property) ? codeDecisions(property) : [])];
      for (const value of values) if (typeof value === "string") codes.push({ code: value, decisions });
    }
    codes.push(...errorCodesOf(document, property, here, seen));
  }
  for (const key of ["allOf", "oneOf", "anyOf"]) {
    if (Array.isArray(node[key])) for (const part of node[key] as unknown[]) codes.push(...errorCodesOf(document, part, here, seen));
  }
  return codes;
}

const errorCodes: Directive = (context) => {
  const rows: string[][] = [];
  for (const reference of families(context)) {
    const document = reference.document!;
    const stated = context.statedCodes?.get(reference.id);
    const byCode = new Map<string, { code: string; status: string; operations: string[]; statusDecisions: Set<string>; codeDecisions: Set<string> }>();
    for (const entry of operationsOf(document)) {
      const decided: Record<string, unknown> = entry.markings.responses;
      for (const { status, content } of entry.responses) {
        if (!/^[45]/.test(status)) continue;
        for (const media of content) {
          for (const { code, decisions } of errorCodesOf(document, media.schema)) {
            const key = `${status} ${code}`;
            const row = byCode.get(key) ?? { code, status, operations: [], statusDecisions: new Set<string>(), codeDecisions: new Set<string>() };
            const link = `<a href="${reference.file}#${redocOperationAnchor(entry)}">${escapeHtml(entry.operationId)}</a>`;
            if (!row.operations.includes(link)) row.operations.push(link);
            const marking = decided[status];
            const aspects = isObject(marking) && Array.isArray(marking.aspects) ? marking.aspects : [];
            if (isObject(marking) && typeof marking.decision === "string") {
              if (aspects.includes("status")) row.statusDecisions.add(marking.decision);
              // A decided body shape decides the codes it carries too.
              if (aspects.includes("body")) row.codeDecisions.add(marking.decision);
            }
            for (const decision of decisions) row.codeDecisions.add(decision);
            byCode.set(key, row);
          }
        }
      }
    }
    const sorted = [...byCode.values()].sort((a, b) => a.status.localeCompare(b.status) || a.code.localeCompare(b.code));
    for (const row of sorted) {
      const statusBasis = [...row.statusDecisions].sort().map((decision) => badge(context, decision, "status")).join(" ");
      // A code the description states is the document's word, even where the schema listing it is decided.
      const codeBasis = stated?.has(row.code)
        ? `<span class="document-word">interface description</span>`
        : [...row.codeDecisions].sort().map((decision) => badge(context, decision, "code")).join(" ");
      rows.push([escapeHtml(reference.title), `<code>${escapeHtml(row.code)}</code> ${codeBasis}`, `${row.status} ${statusBasis}`, row.operations.join(", ")]);
    }
  }
  return table(["Family", "Code", "HTTP status", "Operations"], rows);
};

export const DIRECTIVES: Record<string, Directive> = {
  environments,
  authentication,
  operations,
  "error-codes": errorCodes,
};

const DIRECTIVE = /^<!--\s*portal:([a-z-]+)\s*-->\s*$/gm;

/** Replaces each directive line with its table; an unknown directive becomes a visible notice. */
export function expandDirectives(markdown: string, context: TableContext): string {
  return markdown.replace(DIRECTIVE, (_line, name: string) => {
    const directive = DIRECTIVES[name];
    if (!directive) return `<div class="notice notice-missing"><p>Unknown portal directive <code>${escapeHtml(name)}</code>.</p></div>`;
    if (families(context).length === 0) return `<div class="notice notice-missing"><p>The generated OpenAPI is missing: run <code>npm run build</code>.</p></div>`;
    return `\n${directive(context)}\n`;
  });
}
