/**
 * Rule family "document": the documents as a whole. Anchors: Versioning 1 (family A's path
 * version), Versioning 3 (the health check and error envelope 2 report versions), Versioning 2.
 */
import { defineRule } from "../types.ts";

const F = "document";
export const RULES = {
  // info.version documents the release; Versioning 3's semantic version is what clients see at run time.
  infoVersionChanged: defineRule(F, "info-version-changed", "informational", "Versioning 3: the interface reports its version"),
  // Versioning 1: a new path version is how family A publishes incompatible changes; its operations are new endpoints.
  pathVersionAdded: defineRule(F, "path-version-added", "informational", "Versioning 1: incompatible changes arrive under a new path version"),
  // A whole family (generated document) disappears: every client of it breaks.
  familyRemoved: defineRule(F, "family-removed", "breaking", "Versioning 1/2: removing endpoints is not among the compatible changes"),
  // A new family document: new endpoints only.
  familyAdded: defineRule(F, "family-added", "compatible", "Versioning 2: adding new endpoints is backward compatible"),
};
