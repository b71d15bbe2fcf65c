/**
 * Where the generated contract lives. One place for the names, so that the build, the
 * tests, the client and the conformance runner agree on them.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export type FamilyId = "family-a" | "family-b";
export type OpenApiVersionId = "3.0" | "3.1";
/** Services that are not interface families: the sandbox's controls (sandbox only, never part of A or B). */
export type ControlServiceId = "sandbox-controls";

/**
 * The two interface families. `id` is the one identifier of a family everywhere (files, check
 * and scenario ids, reports, the conformance CLI); `name` is how prose calls it, in the
 * interface description's own words ("family A"); `title` heads its documents.
 */
export const FAMILIES = [
  { id: "family-a", name: "family A", emitterName: "PaymentCollection.FamilyA", title: "Family A (v1)" },
  { id: "family-b", name: "family B", emitterName: "PaymentCollection.FamilyB", title: "Family B (SDK)" },
] as const satisfies ReadonlyArray<{ id: FamilyId; name: string; emitterName: string; title: string }>;

/** The ids of both families, in order. */
export const FAMILY_IDS: readonly FamilyId[] = FAMILIES.map((f) => f.id);

/** Whether a string is a family id (`family-a`, `family-b`). */
export function isFamilyId(value: unknown): value is FamilyId {
  return FAMILY_IDS.includes(value as FamilyId);
}

/** How prose names a family: `family A`, `family B` (the interface description's words). */
export function familyName(id: FamilyId): string {
  return FAMILIES.find((f) => f.id === id)!.name;
}

/**
 * The sandbox controls, a third service of the same TypeSpec program. Deliberately not in
 * FAMILIES: nothing that iterates the interface families (conformance, client, docs of the
 * published interface) should pick the controls up by accident.
 */
export const CONTROL_SERVICES = [
  { id: "sandbox-controls", emitterName: "PaymentCollection.SandboxControls", title: "Sandbox controls" },
] as const satisfies ReadonlyArray<{ id: ControlServiceId; emitterName: string; title: string }>;

export const OPENAPI_VERSIONS = [
  { id: "3.0", emitterFolder: "3.0.0" },
  { id: "3.1", emitterFolder: "3.1.0" },
] as const satisfies ReadonlyArray<{ id: OpenApiVersionId; emitterFolder: string }>;

/** Path of a generated OpenAPI document relative to the generated/ folder. */
export function openapiPath(
  version: OpenApiVersionId,
  family: FamilyId | ControlServiceId,
  kind: "yaml" | "json" | "dereferenced.json",
): string {
  return `openapi/${version}/${family}.${kind}`;
}

/**
 * Where the contract's files are. In this repository the contract package sits beside spec/
 * (with the TypeSpec sources) and generated/; an installed contract package carries its own
 * copy of what the model reads (copied in by prepack). The repository is told by its TypeSpec
 * entry point, not by the copy, which exists in the repository only while a pack runs.
 */
const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));
/** The repository (or installed package) folder holding spec/, generated/ and docs/. */
export const CONTRACT_ROOT = existsSync(resolve(PACKAGE_DIR, "../spec/main.tsp")) ? resolve(PACKAGE_DIR, "..") : PACKAGE_DIR;
/** The build output folder: OpenAPI documents and TypeScript types. */
export const GENERATED_DIR = join(CONTRACT_ROOT, "generated");
/** Absolute path of a generated OpenAPI document. */
export function openapiFile(version: OpenApiVersionId, family: FamilyId | ControlServiceId, kind: "yaml" | "json" | "dereferenced.json"): string {
  return join(GENERATED_DIR, openapiPath(version, family, kind));
}
