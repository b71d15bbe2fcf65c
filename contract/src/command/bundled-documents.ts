/**
 * The OpenAPI documents a contract package carries, by family, OpenAPI version and kind, for
 * `payment-collection contract path` and as the default input of `contract validate`.
 */
import { FAMILIES, OPENAPI_VERSIONS, openapiFile, type FamilyId, type OpenApiVersionId } from "../model/layout.ts";

export type DocumentKind = "yaml" | "json" | "dereferenced.json";
export const DOCUMENT_KINDS: readonly DocumentKind[] = ["yaml", "json", "dereferenced.json"];

export interface BundledDocument {
  family: FamilyId;
  openapi: OpenApiVersionId;
  kind: DocumentKind;
  path: string;
}

/** Every bundled document of the published families (never the sandbox controls), filtered. */
export function bundledDocuments(filter: { family?: FamilyId; openapi?: OpenApiVersionId; kind?: DocumentKind } = {}): BundledDocument[] {
  return FAMILIES.flatMap((family) =>
    OPENAPI_VERSIONS.flatMap((version) =>
      DOCUMENT_KINDS.map((kind) => ({ family: family.id, openapi: version.id, kind, path: openapiFile(version.id, family.id, kind) })),
    ),
  ).filter((d) => (!filter.family || d.family === filter.family) && (!filter.openapi || d.openapi === filter.openapi) && (!filter.kind || d.kind === filter.kind));
}
