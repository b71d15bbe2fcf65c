/**
 * The committed summary of a mutation run (mutation/summary.md): the score, the counts per file
 * and per mutator, and every mutant left out of the score with its reason, read from Stryker's
 * JSON report (mutation-testing-report-schema).
 */
export type MutantStatus = "Killed" | "Survived" | "NoCoverage" | "Timeout" | "Ignored" | "RuntimeError" | "CompileError" | "Pending";

interface ReportMutant {
  id: string;
  mutatorName: string;
  status: MutantStatus;
  statusReason?: string;
  replacement?: string;
  location: { start: { line: number; column: number } };
}

export interface MutationReport {
  files: Record<string, { source: string; mutants: ReportMutant[] }>;
}

interface Counts {
  killed: number;
  survived: number;
  noCoverage: number;
  timeout: number;
  ignored: number;
  errors: number;
  total: number;
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

const row = (name: string, c: Counts) =>
  `| ${name} | ${c.killed} | ${c.timeout} | ${c.survived} | ${c.noCoverage} | ${c.ignored} | ${c.errors} | ${c.total} | ${score(c).toFixed(1)} % |`;
const HEADER = "| | killed | timed out | survived | no coverage | ignored | errors | all | score |\n|---|---|---|---|---|---|---|---|---|";

export function summarise(report: MutationReport, relativeName: (file: string) => string): { headline: string; markdown: string } {
  const all = empty();
  const perFile = new Map<string, Counts>();
  const perMutator = new Map<string, Counts>();
  const ignored = new Map<string, string[]>();
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const name = relativeName(file);
    for (const mutant of mutants) {
      add(all, mutant.status);
      if (!perFile.has(name)) perFile.set(name, empty());
      add(perFile.get(name)!, mutant.status);
      if (!perMutator.has(mutant.mutatorName)) perMutator.set(mutant.mutatorName, empty());
      add(perMutator.get(mutant.mutatorName)!, mutant.status);
      if (mutant.status === "Ignored") {
        const reason = mutant.statusReason ?? "no reason given";
        if (!ignored.has(reason)) ignored.set(reason, []);
        ignored.get(reason)!.push(`${name}:${mutant.location.start.line} ${mutant.mutatorName}`);
      }
    }
  }
  const headline = `mutation score ${score(all).toFixed(1)} %: ${all.killed} killed, ${all.timeout} timed out, ${all.survived} survived, ${all.noCoverage} without coverage, ${all.ignored} ignored (${((100 * all.ignored) / Math.max(all.total, 1)).toFixed(1)} %), ${all.errors} errors, of ${all.total} mutants`;
  const sorted = <T>(map: Map<string, T>) => [...map.entries()].sort(([a], [b]) => a.localeCompare(b));
  const markdown = [
    "# Mutation testing of the sandbox: summary",
    "",
    "Written by `npm run mutation` from Stryker's report; see [README.md](README.md) for what is mutated, how, and the triage.",
    "",
    `**${headline}.**`,
    "",
    "## Per file",
    "",
    HEADER,
    ...sorted(perFile).map(([name, counts]) => row(`\`${name}\``, counts)),
    row("**all**", all),
    "",
    "## Per mutator",
    "",
    HEADER,
    ...sorted(perMutator).map(([name, counts]) => row(name, counts)),
    "",
    "## Mutants left out of the score, by reason",
    "",
    ...[...ignored.entries()].sort((a, b) => b[1].length - a[1].length).flatMap(([reason, where]) => [`- **${where.length}** ${reason}`, `  - ${where.join(", ")}`]),
    "",
  ].join("\n");
  return { headline, markdown };
}
