/**
 * Which statement of the catalogue (spec/statements.yaml) each broken server of the self-test
 * breaks, and whether the suites kill it by a result that names that statement.
 *
 * - `brokenServers()`: every broken server (mutation.ts' and derived-mutation-suite.ts' lists) with
 *   the statements it names;
 * - `killers()`: the failing results that kill a broken server: id under its `caughtBy` and, when
 *   it names statements, naming one of them (the suites and the broken server agree on what broke);
 * - `recordKill()`: each mutation test appends its outcome to reports/.statement-kills/ (tests run
 *   in several processes); `statementKillReport()` turns the records into the table the
 *   self-test's global teardown prints and writes to reports/statement-kills.{md,json}.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import type { CheckResult } from "../../src/core/results.ts";
import { loadCatalogue, type Catalogue } from "../../src/core/statement-map.ts";
import { brokenServers, type BrokenServer } from "./broken-servers.ts";

/**
 * Observable statements no server can break: they grant, they forbid nothing a server does.
 * (Clauses of other statements that cannot be shown on the wire are in behaviour-mutants.ts'
 * NOT_CATCHABLE_HERE.)
 */
export const NOT_BREAKABLE: Array<{ statement: string; why: string }> = [
  {
    statement: "A-MERCHANT-RULE-all-optional",
    why: "it allows a server to omit any merchant field and forbids nothing a server could do; it binds the suites (no check may require a merchant field), which statement-map.ts and the seed profile hold",
  },
];

/** The wire statements: those a broken server can break in HTTP exchanges. */
export function wireStatements(catalogue: Catalogue = loadCatalogue()) {
  return catalogue.statements.filter((s) => s.wire);
}

/**
 * The failing results that kill a broken server: under its `caughtBy` and naming one of the
 * statements it breaks, or of the decisions the contract does not model that it breaks (any,
 * when it names none: the catalogue test reports those).
 */
export function killers(failing: CheckResult[], server: { caughtBy: string; statements?: string[]; decisions?: string[] }): CheckResult[] {
  const named = new Set([...(server.statements ?? []), ...(server.decisions ?? [])]);
  return failing.filter((r) => r.id.startsWith(server.caughtBy) && (named.size === 0 || [...r.statements, ...r.decisions].some((id) => named.has(id))));
}

/**
 * The stop condition of a broken server's run: a result that kills it (what `killers` keeps,
 * failing). The run ends there, since nothing after it can change the verdict.
 */
export function kills(server: { caughtBy: string; statements?: string[]; decisions?: string[] }): (result: CheckResult) => boolean {
  return (result) => result.verdict === "fail" && killers([result], server).length > 0;
}

/** One line of explanation when results under `caughtBy` fail but name none of the statements. */
export function disagreement(failing: CheckResult[], server: { caughtBy: string; statements?: string[]; decisions?: string[] }): string | undefined {
  const under = failing.filter((r) => r.id.startsWith(server.caughtBy));
  if (under.length === 0 || killers(failing, server).length > 0) return undefined;
  return `results under ${server.caughtBy} failed but name none of ${JSON.stringify([...(server.statements ?? []), ...(server.decisions ?? [])])}: ${under.map((r) => `${r.id} ${JSON.stringify([...r.statements, ...r.decisions])}`).join("; ")}`;
}

const REPORTS = fileURLToPath(new URL("../../../reports/", import.meta.url));
const RECORDS = join(REPORTS, ".statement-kills");

interface KillRecord {
  name: string;
  suite: BrokenServer["suite"];
  killed: boolean;
  by: string[];
}

/** Appends one broken server's outcome (each test process has its own file). */
export function recordKill(name: string, suite: BrokenServer["suite"], killedBy: CheckResult[]): void {
  mkdirSync(RECORDS, { recursive: true });
  const record: KillRecord = { name, suite, killed: killedBy.length > 0, by: killedBy.map((r) => r.id) };
  appendFileSync(join(RECORDS, `${process.pid}.jsonl`), `${JSON.stringify(record)}\n`);
}

export function clearKillRecords(): void {
  rmSync(RECORDS, { recursive: true, force: true });
}

function readKillRecords(): Map<string, KillRecord> {
  const records = new Map<string, KillRecord>();
  let files: string[] = [];
  try {
    files = readdirSync(RECORDS).filter((f) => f.endsWith(".jsonl"));
  } catch {
    return records;
  }
  for (const file of files) {
    for (const line of readFileSync(join(RECORDS, file), "utf8").split("\n").filter(Boolean)) {
      const record = JSON.parse(line) as KillRecord;
      records.set(`${record.suite}:${record.name}`, record);
    }
  }
  return records;
}

export type Outcome = "killed" | "survived" | "not run";

export interface StatementRow {
  id: string;
  family: string;
  servers: Array<{ name: string; outcome: Outcome }>;
}

export interface StatementKillReport {
  rows: StatementRow[];
  summary: string[];
}

/** The table: per wire statement its broken servers and their outcome in this run. */
export function statementKillReport(catalogue: Catalogue = loadCatalogue(), servers = brokenServers(), records = readKillRecords()): StatementKillReport {
  const outcome = (s: BrokenServer): Outcome => {
    const record = records.get(`${s.suite}:${s.name}`);
    return record === undefined ? "not run" : record.killed ? "killed" : "survived";
  };
  const rows = wireStatements(catalogue).map((statement) => ({
    id: statement.id,
    family: statement.family,
    servers: servers.filter((s) => s.statements.includes(statement.id)).map((s) => ({ name: s.name, outcome: outcome(s) })),
  }));
  const withServer = rows.filter((r) => r.servers.length > 0).length;
  const unbreakable = NOT_BREAKABLE.filter((n) => rows.some((r) => r.id === n.statement && r.servers.length === 0)).length;
  const ran = servers.filter((s) => outcome(s) !== "not run");
  const killed = ran.filter((s) => outcome(s) === "killed");
  const summary = [
    `${withServer} of ${rows.length} observable statements have a broken server (${unbreakable} more cannot be broken by a server); ${servers.length} broken servers, ${ran.length} run in this self-test, ${killed.length} killed${ran.length === killed.length && ran.length === servers.length ? " (all)" : ""}`,
    ...["A", "both", "B"].map((family) => {
      const mine = rows.filter((r) => r.family === family);
      return `  family ${family}: ${mine.filter((r) => r.servers.length > 0).length} of ${mine.length} with a broken server`;
    }),
  ];
  return { rows, summary };
}

export function formatStatementKills(report: StatementKillReport): string {
  const lines = ["| statement | family | broken servers | killed |", "|---|---|---|---|"];
  for (const row of report.rows) {
    const unbreakable = NOT_BREAKABLE.find((n) => n.statement === row.id);
    const servers = row.servers.map((s) => `${s.name} (${s.outcome})`).join(", ") || (unbreakable ? `none: ${unbreakable.why}` : "**none**");
    const killed = row.servers.length === 0 ? (unbreakable ? "not breakable" : "no server") : row.servers.every((s) => s.outcome === "killed") ? "yes" : row.servers.some((s) => s.outcome === "survived") ? "**NO**" : "not all run";
    lines.push(`| ${row.id} | ${row.family} | ${servers} | ${killed} |`);
  }
  return [...lines, "", ...report.summary].join("\n");
}

/** Writes reports/statement-kills.md and .json; returns the Markdown. */
export function writeStatementKills(report: StatementKillReport = statementKillReport()): string {
  const markdown = `# Statements and the broken servers that break them\n\n${formatStatementKills(report)}\n`;
  mkdirSync(REPORTS, { recursive: true });
  writeFileSync(join(REPORTS, "statement-kills.md"), markdown);
  writeFileSync(join(REPORTS, "statement-kills.json"), `${JSON.stringify(report, null, 2)}\n`);
  return markdown;
}
