/**
 * Conformance coverage of the statement catalogue: which conformance checks enforce each
 * statement. The mapping belongs to the conformance suites (each check names the statement
 * ids it enforces); the portal only shows it. When the suites do not publish a mapping yet,
 * the statement page says "coverage: not yet mapped" rather than inventing one.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export interface CoveringCheck {
  /** Name of the check as the conformance report prints it. */
  name: string;
  /** What the check does, when known. */
  title?: string;
  /** Profile the check runs under (`seed` or `full`), when known. */
  profile?: string;
  /** Family or suite it belongs to, when known. */
  suite?: string;
}

export interface StatementCoverage {
  /** Where the mapping came from, named on the page. */
  source: string;
  byStatement: Map<string, CoveringCheck[]>;
}

/**
 * Modules of the conformance suites that may publish the mapping, with the export that
 * returns it as `{ statementId: checks[] }` or a list of `{ name, statements, profile?, suite? }`.
 */
const MAPPING_MODULES: ReadonlyArray<{ path: string; exportName: string }> = [
  { path: "conformance/coverage.ts", exportName: "statementCoverage" },
];

interface CheckLike {
  name?: unknown;
  id?: unknown;
  statements?: unknown;
  profile?: unknown;
  suite?: unknown;
  family?: unknown;
}

function normalise(raw: unknown): Map<string, CoveringCheck[]> | null {
  const byStatement = new Map<string, CoveringCheck[]>();
  const add = (statement: string, check: CoveringCheck): void => {
    const list = byStatement.get(statement) ?? [];
    if (!list.some((known) => known.name === check.name && known.profile === check.profile)) list.push(check);
    byStatement.set(statement, list);
  };
  const toCheck = (value: unknown): CoveringCheck | null => {
    if (typeof value === "string") return { name: value };
    if (value && typeof value === "object") {
      const check = value as CheckLike;
      const name = typeof check.name === "string" ? check.name : typeof check.id === "string" ? check.id : null;
      if (!name) return null;
      return {
        name,
        profile: typeof check.profile === "string" ? check.profile : undefined,
        suite: typeof check.suite === "string" ? check.suite : typeof check.family === "string" ? check.family : undefined,
      };
    }
    return null;
  };
  if (Array.isArray(raw)) {
    for (const item of raw as CheckLike[]) {
      const check = toCheck(item);
      if (!check || !Array.isArray(item.statements)) continue;
      for (const statement of item.statements) if (typeof statement === "string") add(statement, check);
    }
  } else if (raw instanceof Map || (raw && typeof raw === "object")) {
    const entries = raw instanceof Map ? [...raw.entries()] : Object.entries(raw as Record<string, unknown>);
    for (const [statement, checks] of entries) {
      for (const value of Array.isArray(checks) ? checks : [checks]) {
        const check = toCheck(value);
        if (check) add(String(statement), check);
      }
    }
  } else {
    return null;
  }
  return byStatement;
}

/** The mapping published by the conformance suites, or null when there is none yet. */
export async function loadStatementCoverage(root: string): Promise<StatementCoverage | null> {
  return (await publishedCoverage(root)) ?? (await coverageFromRunner(root));
}

async function publishedCoverage(root: string): Promise<StatementCoverage | null> {
  for (const candidate of MAPPING_MODULES) {
    const full = join(root, candidate.path);
    if (!existsSync(full)) continue;
    try {
      const module = (await import(pathToFileURL(full).href)) as Record<string, unknown>;
      const exported = module[candidate.exportName];
      const raw = typeof exported === "function" ? await (exported as () => unknown)() : exported;
      const byStatement = normalise(raw);
      if (byStatement) return { source: candidate.path, byStatement };
    } catch (error) {
      console.warn(`docs: could not read the conformance coverage from ${candidate.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return null;
}

/** Modules of the conformance runner the mapping is derived from when no module publishes it. */
const RUNNER_MODULES = {
  checks: "conformance/checks/index.ts",
  responseCheck: "conformance/checks/response-check.ts",
  contract: "conformance/runner/contract.ts",
  statementMap: "conformance/runner/statement-map.ts",
} as const;

/** Folders whose index module may export lists of behaviour scenarios (`{id, statements, ...}`). */
const SCENARIO_MODULES = ["conformance/scenarios/index.ts"];

interface RunnerCheck {
  family: "a" | "b";
  operationId: string;
  status: string;
  title?: string;
  profile?: string;
  errorCode?: string;
  statements?: string[];
}

/**
 * The same mapping the conformance report prints with `--statements`, computed without a run:
 * each response check enforces the wire statements the runner's statement map derives from
 * the catalogue's encodings, plus the ones it names itself; each behaviour scenario enforces
 * the statements it names. Any failure (the runner's modules missing or changed) leaves the
 * coverage "not yet mapped" with a warning, never a broken build.
 */
async function coverageFromRunner(root: string): Promise<StatementCoverage | null> {
  if (!Object.values(RUNNER_MODULES).every((path) => existsSync(join(root, path)))) return null;
  try {
    const load = async (path: string): Promise<Record<string, unknown>> => (await import(pathToFileURL(join(root, path)).href)) as Record<string, unknown>;
    const checks = (await load(RUNNER_MODULES.checks)).FAMILY_CHECKS as Record<"a" | "b", RunnerCheck[]>;
    const checkId = (await load(RUNNER_MODULES.responseCheck)).checkId as (check: RunnerCheck & { variant?: string }) => string;
    const loadFamilyContract = (await load(RUNNER_MODULES.contract)).loadFamilyContract as (family: "a" | "b", generatedDir?: string) => unknown;
    const statementMap = await load(RUNNER_MODULES.statementMap);
    const catalogue = (statementMap.loadCatalogue as () => unknown)();
    const statementsFor = statementMap.statementsFor as (catalogue: unknown, contract: unknown, target: object) => string[];

    const byStatement = new Map<string, CoveringCheck[]>();
    const add = (statement: string, check: CoveringCheck): void => {
      byStatement.set(statement, [...(byStatement.get(statement) ?? []), check]);
    };
    for (const family of ["a", "b"] as const) {
      const contract = loadFamilyContract(family, join(root, "generated"));
      for (const check of checks[family] ?? []) {
        const ids = new Set(statementsFor(catalogue, contract, { family, operationId: check.operationId, status: check.status, errorCode: check.errorCode }));
        for (const extra of check.statements ?? []) ids.add(extra);
        const covering: CoveringCheck = { name: checkId(check), title: check.title, profile: check.profile ?? "seed", suite: `family ${family.toUpperCase()}` };
        for (const id of ids) add(id, covering);
      }
    }
    for (const path of SCENARIO_MODULES.filter((candidate) => existsSync(join(root, candidate)))) {
      for (const value of Object.values(await load(path))) {
        if (!Array.isArray(value)) continue;
        for (const scenario of value as Array<{ id?: unknown; title?: unknown; profile?: unknown; family?: unknown; statements?: unknown }>) {
          if (!scenario || typeof scenario.id !== "string" || !Array.isArray(scenario.statements)) continue;
          const covering: CoveringCheck = {
            name: scenario.id,
            title: typeof scenario.title === "string" ? scenario.title : undefined,
            profile: typeof scenario.profile === "string" ? scenario.profile : undefined,
            suite: typeof scenario.family === "string" ? `family ${scenario.family.toUpperCase()} scenario` : "scenario",
          };
          for (const id of scenario.statements) if (typeof id === "string") add(id, covering);
        }
      }
    }
    return { source: "the conformance runner (response checks and scenarios)", byStatement };
  } catch (error) {
    console.warn(`docs: could not derive the conformance coverage from the runner: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
