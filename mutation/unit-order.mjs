// The order in which a mutant's covering units run. A mutant stops at the first unit that fails
// (bail), so the order decides the run's time and nothing else: a survivor runs every unit
// either way. Cheapest first wasted most of a run on cheap units that rarely kill (about ten
// units a killed mutant, 2026-12-03). The record of the last runs (mutation/incremental.json)
// knows which unit killed each mutant and which units kill in each file, so a mutant runs first
// the unit that killed it last time, then the units by their time per kill in its file; the
// kills of this run count too, so a run without a record learns as it goes (Stryker sends a
// file's mutants together).
import { existsSync, readFileSync } from "node:fs";

/** Where a mutant stands, as the record and the runner both can name it (lines from 1). */
const keyOf = (file, mutatorName, replacement, line) => `${file}\n${mutatorName}\n${replacement}\n${line}`;

/** The sandbox source's path from the repository's root, whatever copy of it Stryker runs in. */
const relativeSource = (fileName) => {
  const normalised = fileName.replace(/\\/g, "/");
  const at = normalised.lastIndexOf("sandbox/src/");
  return at === -1 ? normalised : normalised.slice(at);
};

/**
 * What the record says of past kills: each mutant's killer by where it stands, and each file's
 * kills per unit. An absent or unreadable record orders by time alone.
 */
export function pastKills(recordPath) {
  const killerAt = new Map();
  const killsIn = new Map();
  if (!existsSync(recordPath)) return { killerAt, killsIn };
  let record;
  try {
    record = JSON.parse(readFileSync(recordPath, "utf8"));
  } catch {
    return { killerAt, killsIn };
  }
  const names = new Map(Object.values(record.testFiles ?? {}).flatMap((file) => file.tests.map((test) => [test.id, test.name])));
  for (const [file, { mutants }] of Object.entries(record.files ?? {})) {
    const counts = new Map();
    for (const mutant of mutants) {
      const killer = names.get(mutant.killedBy?.[0]);
      if (mutant.status !== "Killed" || killer === undefined) continue;
      killerAt.set(keyOf(file, mutant.mutatorName, mutant.replacement, mutant.location.start.line), killer);
      counts.set(killer, (counts.get(killer) ?? 0) + 1);
    }
    killsIn.set(file, counts);
  }
  return { killerAt, killsIn };
}

/**
 * The units to run for a mutant (Stryker's activeMutant: its location's lines count from 0), in
 * order: last time's killer, then by time per past kill in the mutant's file (counted one more,
 * so that a unit that never killed there ranks by its time alone).
 */
export function orderUnits(past, mutant, units, durations) {
  const file = relativeSource(mutant.fileName);
  const killer = past.killerAt.get(keyOf(file, mutant.mutatorName, mutant.replacement, mutant.location.start.line + 1));
  const kills = past.killsIn.get(file) ?? new Map();
  const cost = (unit) => (unit.name === killer ? -1 : (durations.get(unit.name) ?? 0) / ((kills.get(unit.name) ?? 0) + 1));
  return [...units].sort((a, b) => cost(a) - cost(b));
}

/** A kill of this run: its unit ranks higher for the next mutants of the same file. */
export function noteKill(past, mutant, unitName) {
  const file = relativeSource(mutant.fileName);
  const counts = past.killsIn.get(file) ?? new Map();
  counts.set(unitName, (counts.get(unitName) ?? 0) + 1);
  past.killsIn.set(file, counts);
}
