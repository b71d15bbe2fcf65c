/**
 * Redoc's anchor of an operation: `tag/<Tag>/operation/<operationId>` (first tag), which
 * Redoc scrolls to on load. Tag names are slugified the way Redoc does for the simple names
 * this contract uses (letters, digits, spaces).
 */
import type { ContractOperation } from "@payment-collection/contract/model/index.ts";

export function redocOperationAnchor(entry: Pick<ContractOperation, "operationId" | "tags">): string {
  const tag = entry.tags[0];
  const operation = `operation/${entry.operationId}`;
  if (!tag) return operation;
  const slug = tag.trim().replace(/\s+/g, "-").replace(/[^A-Za-z0-9\-_.~]/g, "");
  return `tag/${slug}/${operation}`;
}
