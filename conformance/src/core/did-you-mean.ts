/** The known name closest to a misspelt one (`baseURL` -> `baseUrl`, `famillyA` -> `familyA`). */

/** Edit distance (insertions, deletions, substitutions), case-insensitive. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= y.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[y.length]!;
}

/** The closest known name, when it is close enough to be what was meant. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const d = distance(name, candidate);
    if (!best || d < best.distance) best = { name: candidate, distance: d };
  }
  // A third of the name may be wrong (at least two characters): closer guesses mislead.
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.name : undefined;
}
