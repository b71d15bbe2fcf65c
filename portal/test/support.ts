/**
 * Helpers of the docs portal tests: a fresh build in a scratch folder, and a static file
 * server on 127.0.0.1 (free port) started and stopped by the test that needs it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildPortal, type BuildReport } from "../src/site.ts";
import * as layout from "@payment-collection/contract/model/layout.ts";

import { CONTRACT_ROOT } from "@payment-collection/contract/model/layout.ts";
import { operationsOf as modelOperationsOf } from "@payment-collection/contract/model/index.ts";

export const ROOT = CONTRACT_ROOT;

export interface BuiltPortal {
  dir: string;
  report: BuildReport;
  remove(): void;
}

/** Builds the portal from the package as it is now into a scratch folder. */
export async function buildFreshPortal(root: string = ROOT): Promise<BuiltPortal> {
  const dir = mkdtempSync(join(tmpdir(), "docs-portal-"));
  const report = await buildPortal({ root, outDir: dir });
  return { dir, report, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ReferenceUnderTest {
  id: string;
  file: string;
  /** The generated document the reference renders (as published). */
  document: Record<string, unknown>;
}

/** The references the portal must have: both families, and the sandbox controls when built. */
export function expectedReferences(root: string = ROOT): ReferenceUnderTest[] {
  const controls = (layout as { CONTROL_SERVICES?: ReadonlyArray<{ id: string }> }).CONTROL_SERVICES ?? [];
  return [...layout.FAMILIES, ...controls]
    .map((service) => ({ id: service.id, path: join(root, "generated", layout.openapiPath("3.1", service.id as layout.FamilyId, "json")) }))
    .filter((entry) => existsSync(entry.path))
    .map((entry) => ({ id: entry.id, file: `reference-${entry.id}.html`, document: JSON.parse(readFileSync(entry.path, "utf8")) as Record<string, unknown> }));
}

/** operationId and summary of every operation of a document, in document order (read by the contract model). */
export function operationsOf(document: Record<string, unknown>): Array<{ operationId: string; summary: string; method: string; path: string }> {
  return modelOperationsOf(document).map((op) => ({ operationId: op.operationId, summary: op.summary, method: op.method.toLowerCase(), path: op.path }));
}

/** Everything Redoc renders as an operation: the paths' operations and the 3.1 webhooks. */
export function renderedOperationsOf(document: Record<string, unknown>): Array<{ operationId: string; summary: string; method: string; path: string }> {
  return [...operationsOf(document), ...operationsOf({ paths: document.webhooks ?? {} })];
}

export { serveStatic, type StaticServer } from "../src/serve.ts";
