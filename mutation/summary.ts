/**
 * The committed summary of a mutation run (mutation/summary.md): the score, the counts per file
 * and per mutator, and every mutant left out of the score with its reason, read from Stryker's
 * JSON report (mutation-testing-report-schema). Beside each figure, the same figure of the run
 * recorded as the starting point (mutation/before.json: the suites as they were before the
 * mutation run was first used to close their holes), when there is one.
 */
export type MutantStatus = "Killed" | "Survived" | "NoCoverage" | "Timeout" | "Ignored" | "RuntimeError" | "CompileError" | "Pending";

interface ReportMutant {
  id: string;
  mutatorName: string;
  status: MutantStatus;
  statusReason?: string;
  location: { start: { line: number; column: number } };
}

export interface MutationReport {
  files: Record<string, { source: string; mutants: ReportMutant[] }>;
}

export interface Counts {
  killed: number;
  survived: number;
  noCoverage: number;
  timeout: number;
  ignored: number;
  errors: number;
  total: number;
}

/** The counts of a run: all, per file and per mutator (what mutation/before.json holds). */
export interface RunCounts {
  all: Counts;
  files: Record<string, Counts>;
  mutators: Record<string, Counts>;
}

const empty = (): Counts => ({ killed: 0, survived: 0, noCoverage: 0, timeout: 0, ignored: 0, errors: 0, total: 0 });

function add(counts: Counts, status: MutantStatus): void {
  counts.total += 1;
  if (status === "Killed") counts.killed += 1;
  else if (status === "Survived") counts.survived += 1;
  else if (status === "NoCoverage") counts.noCoverage += 1;
  else if (status === "Timeout") counts.timeout += 1;
  else if (status === "Ignored") counts.ignored += 1;
  else counts.errors += 1;
}

/** (killed + timed out) / (all − ignored − errors): Stryker's mutation score. */
export function score(counts: Counts): number {
  const valid = counts.total - counts.ignored - counts.errors;
  return valid === 0 ? 100 : (100 * (counts.killed + counts.timeout)) / valid;
}

export function countsOf(report: MutationReport, relativeName: (file: string) => string): RunCounts {
  const run: RunCounts = { all: empty(), files: {}, mutators: {} };
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const name = relativeName(file);
    for (const mutant of mutants) {
      add(run.all, mutant.status);
      add((run.files[name] ??= empty()), mutant.status);
      add((run.mutators[mutant.mutatorName] ??= empty()), mutant.status);
    }
  }
  return run;
}

/** Every ignored mutant, by reason: `file:line Mutator`. */
function ignoredByReason(report: MutationReport, relativeName: (file: string) => string): Map<string, string[]> {
  const ignored = new Map<string, string[]>();
  for (const [file, { mutants }] of Object.entries(report.files)) {
    for (const mutant of mutants.filter((m) => m.status === "Ignored")) {
      const reason = mutant.statusReason ?? "no reason given";
      if (!ignored.has(reason)) ignored.set(reason, []);
      ignored.get(reason)!.push(`${relativeName(file)}:${mutant.location.start.line} ${mutant.mutatorName}`);
    }
  }
  return ignored;
}

export function headline(counts: Counts): string {
  return `mutation score ${score(counts).toFixed(1)} %: ${counts.killed} killed, ${counts.timeout} timed out, ${counts.survived} survived, ${counts.noCoverage} without coverage, ${counts.ignored} ignored (${((100 * counts.ignored) / Math.max(counts.total, 1)).toFixed(1)} %), ${counts.errors} errors, of ${counts.total} mutants`;
}

const HEADER = "| | killed | timed out | survived | no coverage | ignored | errors | all | score | score before |\n|---|---|---|---|---|---|---|---|---|---|";
const row = (name: string, c: Counts, before?: Counts) =>
  `| ${name} | ${c.killed} | ${c.timeout} | ${c.survived} | ${c.noCoverage} | ${c.ignored} | ${c.errors} | ${c.total} | ${score(c).toFixed(1)} % | ${before ? `${score(before).toFixed(1)} % (${before.killed + before.timeout} of ${before.total - before.ignored - before.errors})` : "new"} |`;

export function summaryMarkdown(report: MutationReport, relativeName: (file: string) => string, before?: RunCounts): string {
  const after = countsOf(report, relativeName);
  const sorted = (map: Record<string, Counts>) => Object.entries(map).sort(([a], [b]) => a.localeCompare(b));
  const ignored = ignoredByReason(report, relativeName);
  return [
    "# Mutation testing of the sandbox: summary",
    "",
    "Written by `npm run mutation` from Stryker's report; see [README.md](README.md) for what is mutated, how, and the triage.",
    "",
    `**Now: ${headline(after.all)}.**`,
    ...(before ? ["", `Before (the suites as they were when the mutation run was first used, ${before.all.total} mutants): ${headline(before.all)}.`] : []),
    "",
    "## Per file",
    "",
    HEADER,
    ...sorted(after.files).map(([name, counts]) => row(`\`${name}\``, counts, before?.files[name])),
    row("**all**", after.all, before?.all),
    "",
    "## Per mutator",
    "",
    HEADER,
    ...sorted(after.mutators).map(([name, counts]) => row(name, counts, before?.mutators[name])),
    "",
    "## Mutants left out of the score, by reason",
    "",
    ...[...ignored.entries()].sort((a, b) => b[1].length - a[1].length).flatMap(([reason, where]) => [`- **${where.length}** ${reason}`, `  - ${where.join(", ")}`]),
    "",
  ].join("\n");
}
