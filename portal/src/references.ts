/**
 * The API references: one page per interface family, plus the sandbox controls as a separate,
 * clearly labelled sandbox-only reference when the contract has them. Each page embeds a
 * docs-build copy of the generated OpenAPI 3.1 document, decorated with decision badges and
 * code samples, and Redoc renders it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import * as layout from "@payment-collection/contract/model/layout.ts";
import { clientBindingFor, API_KEY_VARIABLE } from "./client-binding.ts";
import { addCodeSamples } from "./code-samples.ts";
import { decorateWithDecisions, type DecisionLinks } from "./decision-badges.ts";
import { escapeHtml } from "./html.ts";
import type { Json as JsonObject } from "@payment-collection/contract/model/index.ts";

export interface ReferenceSource {
  id: string;
  title: string;
  /** Output page. */
  file: string;
  label: string;
  sandboxOnly: boolean;
  /** Repository path of the generated 3.1 JSON document. */
  sourcePath: string;
  /** The generated document as published, or null when it is missing (not built yet). */
  document: JsonObject | null;
  dereferenced: JsonObject | null;
}

interface ServiceEntry {
  id: string;
  title: string;
}

function services(): { families: ServiceEntry[]; controls: ServiceEntry[] } {
  const controls = (layout as { CONTROL_SERVICES?: readonly ServiceEntry[] }).CONTROL_SERVICES ?? [];
  return { families: [...layout.FAMILIES], controls: [...controls] };
}

/** Loads the generated 3.1 documents of the families (always listed) and of the controls (when built). */
export async function loadReferenceSources(root: string): Promise<ReferenceSource[]> {
  const { families, controls } = services();
  const sources: ReferenceSource[] = [];
  const entries = [
    ...families.map((service) => ({ service, sandboxOnly: false })),
    ...controls.map((service) => ({ service, sandboxOnly: true })),
  ];
  for (const { service, sandboxOnly } of entries) {
    const sourcePath = `generated/${layout.openapiPath("3.1", service.id as layout.FamilyId, "json")}`;
    const full = join(root, sourcePath);
    // The controls are optional: no page until the contract has them.
    if (sandboxOnly && !existsSync(full)) continue;
    const document = existsSync(full) ? (JSON.parse(readFileSync(full, "utf8")) as JsonObject) : null;
    const dereferenced = document ? ((await SwaggerParser.dereference(structuredClone(document) as never)) as unknown as JsonObject) : null;
    sources.push({
      id: service.id,
      title: sandboxOnly ? `${service.title} (sandbox only)` : service.title,
      file: `reference-${service.id}.html`,
      label: sandboxOnly ? `${service.title} (sandbox only)` : service.title,
      sandboxOnly,
      sourcePath,
      document,
      dereferenced,
    });
  }
  return sources;
}

/** The docs-build copy of a reference document: decision badges and code samples added. */
export function decorateReference(root: string, source: ReferenceSource, links: DecisionLinks): JsonObject | null {
  if (!source.document || !source.dereferenced) return null;
  const badged = decorateWithDecisions(source.document, source.dereferenced, links);
  return addCodeSamples(badged, {
    apiKeyVariable: API_KEY_VARIABLE,
    client: clientBindingFor(root, source.id, source.document),
  });
}

export interface Download {
  title: string;
  url: string;
}

/** The published documents a reader can download, as copied into the portal. */
export function downloadsOf(source: ReferenceSource, available: (portalPath: string) => boolean): Download[] {
  const downloads: Download[] = [];
  for (const version of ["3.1", "3.0"] as const) {
    for (const kind of ["json", "yaml"] as const) {
      const portalPath = layout.openapiPath(version, source.id as layout.FamilyId, kind);
      if (available(portalPath)) downloads.push({ title: `OpenAPI ${version} ${kind.toUpperCase()}`, url: portalPath });
    }
  }
  return downloads;
}

/** The line above a reference: what it covers, its environments, and where it comes from. */
export function referenceBanner(source: ReferenceSource, decisionsPage: string): string {
  const document = source.document;
  if (source.sandboxOnly) {
    return `<strong>Sandbox only.</strong> These controls exist only in this package's sandbox, to do what the published interface cannot (create boletos in a given state, simulate payments, move the sandbox clock). They are not part of family A or family B and no production server offers them. Rendered from <code>${escapeHtml(source.sourcePath)}</code>.`;
  }
  const servers = Array.isArray(document?.servers) ? (document!.servers as JsonObject[]) : [];
  const environments = servers
    .map((server) => `<code>${escapeHtml(String(server.url))}</code>${server.description ? ` ${escapeHtml(String(server.description))}` : ""}`)
    .join(" · ");
  return `<strong>${escapeHtml(source.title)}</strong> · ${environments} · Rendered from <code>${escapeHtml(source.sourcePath)}</code>. Badges <a class="decision-badge" href="${decisionsPage}">Project decision Dnn</a> mark what the project decided where the interface description is silent.`;
}

export function missingReferenceArticle(source: ReferenceSource): string {
  return `<h1>${escapeHtml(source.title)}</h1>
<div class="notice notice-missing"><p>The generated OpenAPI document <code>${escapeHtml(source.sourcePath)}</code> is missing: run <code>npm run build</code>, then <code>npm run docs</code>.</p></div>`;
}
