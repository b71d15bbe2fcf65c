/**
 * Checks the generated contract as a whole and summarises it: lint, OpenAPI validity, the
 * statement catalogue's encoding checks and the decision markings. Used by `npm start`.
 */
import { collectDecisionMarkings, loadDecisionRecord } from "../decisions.ts";
import { evaluateCheck } from "../encoding/index.ts";
import { FAMILIES, OPENAPI_VERSIONS, isObject, loadDocument, openapiFile, operationsOf, type FamilyId, type Json, type OpenApiVersionId } from "../model/index.ts";
import { validateAgainstOpenApiSchema, validateSpecRules } from "../openapi-validity.ts";
import { checksFor, loadStatements } from "../statements.ts";
import { lintFailed, lintOpenApiDocuments } from "./lint-openapi.ts";

export interface ContractReport {
  lines: string[];
  ok: boolean;
}

/** The referenced document (what the encoding checks and the decision markings read). */
function readDocument(version: OpenApiVersionId, family: FamilyId): Json {
  return loadDocument(family, { version, form: "referenced" }).document;
}

export async function reportContract(): Promise<ContractReport> {
  const lines: string[] = [];
  let ok = true;

  const lint = await lintOpenApiDocuments();
  const lintTotals = lint.reduce((sum, r) => ({ error: sum.error + r.counts.error, warning: sum.warning + r.counts.warning }), { error: 0, warning: 0 });
  lines.push(`lint (spectral:oas): ${lint.length} documents, ${lintTotals.error} errors, ${lintTotals.warning} warnings`);
  if (lintFailed(lint)) ok = false;

  const statements = loadStatements();
  const failedStatements = new Set<string>();
  for (const version of OPENAPI_VERSIONS) {
    for (const family of FAMILIES) {
      const document = readDocument(version.id, family.id);
      const file = openapiFile(version.id, family.id, "json");
      const problems = [...(await validateSpecRules(file)), ...(await validateAgainstOpenApiSchema(file, version.id)).problems];
      if (problems.length > 0) {
        ok = false;
        lines.push(`INVALID ${version.id}/${family.id}: ${problems.join("; ")}`);
      }
      for (const statement of statements) {
        for (const check of checksFor(statement, family.id)) {
          if (evaluateCheck(document, check).length > 0) failedStatements.add(statement.id);
        }
      }
    }
  }
  if (failedStatements.size > 0) ok = false;

  for (const family of FAMILIES) {
    const document = readDocument("3.1", family.id);
    const operations = operationsOf(document).length;
    const schemas = isObject(document.components) && isObject(document.components.schemas) ? Object.keys(document.components.schemas).length : 0;
    lines.push(`${family.title}: ${operations} operations, ${schemas} schemas`);
  }
  lines.push(
    `statements: ${statements.length} catalogued, ${statements.length - failedStatements.size} encoded in every document they apply to` +
      (failedStatements.size > 0 ? `; NOT encoded: ${[...failedStatements].join(", ")}` : ""),
  );

  const decisions = loadDecisionRecord();
  const markedIds = new Set(
    FAMILIES.flatMap((family) => collectDecisionMarkings(readDocument("3.1", family.id)).map((marking) => marking.decision)),
  );
  const openCount = decisions.filter((d) => d.status === "left open").length;
  lines.push(`decisions: ${decisions.length} recorded (${openCount} left open), ${markedIds.size} of them marked in the OpenAPI`);
  lines.push(`validity: ${OPENAPI_VERSIONS.length * FAMILIES.length} documents checked with swagger-parser`);
  lines.push(ok ? "contract: OK" : "contract: PROBLEMS FOUND");
  return { lines, ok };
}
