/**
 * Rule family "operations": paths, operations and webhooks appearing, disappearing or moving,
 * and their documentation. Anchors: Versioning 1 (family A changes incompatibly only under a
 * new path version), Versioning 2 (new endpoints are backward compatible), Events (the
 * service sends webhooks), issue #18 ("removed or renamed path, operation").
 */
import { defineRule } from "../types.ts";

const F = "operations";
export const RULES = {
  // Clients call it; they get 404 (issue #18; oasdiff api-path-removed-without-deprecation). For family A only a new /vN may break.
  pathRemoved: defineRule(F, "api-path-removed", "breaking", "Versioning 1: incompatible changes arrive under a new path version; oasdiff api-path-removed-without-deprecation"),
  // Clients call it; they get 404 or 405 (oasdiff api-removed-without-deprecation).
  operationRemoved: defineRule(F, "api-removed", "breaking", "Versioning 1; issue #18: removed operation; oasdiff api-removed-without-deprecation"),
  // The same operation (same operationId and method) under another path: old clients call the old path (issue #18 "renamed path").
  pathRenamed: defineRule(F, "api-path-renamed", "breaking", "Versioning 1; issue #18: renamed path"),
  // Versioning 2: "Adding ... new endpoints is backward compatible".
  pathAdded: defineRule(F, "api-path-added", "compatible", "Versioning 2: adding new endpoints is backward compatible"),
  operationAdded: defineRule(F, "api-added", "compatible", "Versioning 2: adding new endpoints is backward compatible"),
  // Receivers that act on the event stop getting it (Events: the service sends a webhook when a charge is paid).
  webhookRemoved: defineRule(F, "webhook-removed", "breaking", "Events: the service sends a webhook to the charge's webhook_url"),
  // An event nobody subscribed to is delivered only to receivers that handle it; unknown events are acknowledged.
  webhookAdded: defineRule(F, "webhook-added", "compatible", "Versioning 2: additions are backward compatible"),
  // Wire-compatible: nothing on the wire carries the operationId; generated SDK method names and reference anchors change, so it is worth a line.
  operationIdChanged: defineRule(F, "api-operation-id-changed", "informational", "common: oasdiff api-operation-id-removed (not on the wire; SDK names change)"),
  // Announces a future removal; today's calls still work.
  deprecated: defineRule(F, "api-deprecated", "informational", "common: oasdiff endpoint-deprecated (info)"),
  undeprecated: defineRule(F, "api-undeprecated", "informational", "common: oasdiff endpoint-reactivated (info)"),
  // Prose only.
  documentationChanged: defineRule(F, "api-documentation-changed", "informational", "common: summaries and descriptions are not part of the wire contract"),
};
