/**
 * Where the generated contract lives. One place for the names, so that the build, the
 * tests, the client and the conformance runner agree on them.
 */
export type FamilyId = "family-a" | "family-b";
export type OpenApiVersionId = "3.0" | "3.1";
/** Services that are not interface families: the sandbox's controls (sandbox only, never part of A or B). */
export type ControlServiceId = "sandbox-controls";

export const FAMILIES = [
  { id: "family-a", letter: "a", emitterName: "PaymentCollection.FamilyA", title: "Family A (v1)" },
  { id: "family-b", letter: "b", emitterName: "PaymentCollection.FamilyB", title: "Family B (SDK)" },
] as const satisfies ReadonlyArray<{ id: FamilyId; letter: string; emitterName: string; title: string }>;

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
