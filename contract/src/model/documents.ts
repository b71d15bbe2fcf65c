/**
 * Loading the generated documents: the two interface families and the sandbox controls, each
 * in OpenAPI 3.0 and 3.1, referenced (component names kept) and dereferenced (no `$ref`).
 * Read once per process: every reader of the contract shares the parsed objects, so treat
 * them as read-only.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Json } from "./json.ts";
import { CONTROL_SERVICES, FAMILIES, GENERATED_DIR, isFamilyId, openapiPath, type ControlServiceId, type FamilyId, type OpenApiVersionId } from "./layout.ts";

/** A service of the TypeSpec program: an interface family or the sandbox controls. */
export type ServiceId = FamilyId | ControlServiceId;
/** Every service with a generated document: both families, then the controls. */
export const SERVICE_IDS: readonly ServiceId[] = [...FAMILIES.map((f) => f.id), ...CONTROL_SERVICES.map((c) => c.id)];

/** `referenced`: the plain JSON, `$ref`s kept; `dereferenced`: every `$ref` inlined. */
export type DocumentForm = "referenced" | "dereferenced";

/** The family of a service; undefined for the sandbox controls. */
export function familyOf(service: ServiceId): FamilyId | undefined {
  return isFamilyId(service) ? service : undefined;
}

/** The OpenAPI version a document declares (`openapi: 3.1.x` or else 3.0). */
export function openApiVersionOf(document: Json): OpenApiVersionId {
  return typeof document.openapi === "string" && document.openapi.startsWith("3.1") ? "3.1" : "3.0";
}

/** One loaded generated document and what it is. */
export interface ContractDocument {
  service: ServiceId;
  version: OpenApiVersionId;
  form: DocumentForm;
  document: Json;
}

export interface DocumentOptions {
  version?: OpenApiVersionId;
  form?: DocumentForm;
  /** Another build output folder (default: the package's generated/). */
  generatedDir?: string;
}

const cache = new Map<string, Json>();

/** The parsed generated document of a service (default: 3.1, dereferenced). Cached. */
export function loadDocument(service: ServiceId, options: DocumentOptions = {}): ContractDocument {
  const version = options.version ?? "3.1";
  const form = options.form ?? "dereferenced";
  const file = resolve(options.generatedDir ?? GENERATED_DIR, openapiPath(version, service, form === "referenced" ? "json" : "dereferenced.json"));
  let document = cache.get(file);
  if (!document) {
    document = JSON.parse(readFileSync(file, "utf8")) as Json;
    cache.set(file, document);
  }
  return { service, version, form, document };
}

/**
 * The documents of several services (default: both families and the sandbox controls), in one
 * version and form (default: 3.1 dereferenced, JSON Schema 2020-12 schemas).
 */
export function loadContractDocuments(options: DocumentOptions & { services?: readonly ServiceId[] } = {}): ContractDocument[] {
  return (options.services ?? SERVICE_IDS).map((service) => loadDocument(service, options));
}
