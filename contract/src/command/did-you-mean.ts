/**
 * The known name closest to a misspelt one: a member of a target file (`baseURL` -> `baseUrl`,
 * `famillyA` -> `familyA`), an option (`--targte` -> `--target`), a command.
 */
import { closest, distance } from "fastest-levenshtein";

/** The closest known name (case-insensitive), when it is close enough to be what was meant. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const lower = known.map((candidate) => candidate.toLowerCase());
  const guess = closest(name.toLowerCase(), lower);
  // A third of the name may be wrong (at least two characters): closer guesses mislead.
  if (distance(name.toLowerCase(), guess) > Math.max(2, Math.floor(name.length / 3))) return undefined;
  return known[lower.indexOf(guess)];
}
