/**
 * Breaking-change detection between contract versions (issue #18), as a library:
 *
 *   diffDocuments(base, head)   one document against another -> classified changes
 *   diffFamilies(base, head)    the families' documents (a family may be missing on one side)
 *   judge(changes, policy)      which breaking changes the version allows
 *   renderChangelog(changes)    the CHANGELOG / portal Markdown
 *   RULE_LIST                   every rule: id, verdict, anchor, rule family
 *
 * Loading documents from a git ref, a folder or a file is in sources.ts; the CLI (cli.ts) and
 * the CI gate (gate.ts) are thin users of these.
 */
import type { Json } from "../model/json.ts";
import { diffDocuments } from "./engine.ts";
import { RULES as DOCUMENT } from "./rules/document.ts";
import type { Change, Verdict } from "./types.ts";

export { diffDocuments, pathVersionOf, type DiffOptions } from "./engine.ts";
export { judge, pathVersionsOf, type JudgedChange, type VersionPolicy } from "./policy.ts";
export { renderChangelog, type ChangelogOptions } from "./markdown.ts";
export { RULE_LIST, RULES_BY_ID } from "./rules/index.ts";
export type { Change, Rule, Side, Verdict } from "./types.ts";

/** Documents by family name (`family-a`, `family-b`); undefined when that side has none. */
export type FamilyDocuments = ReadonlyMap<string, Json | undefined>;

export function diffFamilies(base: FamilyDocuments, head: FamilyDocuments): Change[] {
  const families = [...new Set([...base.keys(), ...head.keys()])].sort();
  const changes: Change[] = [];
  for (const family of families) {
    const before = base.get(family);
    const after = head.get(family);
    if (!before && !after) continue;
    if (!after) {
      changes.push({ rule: DOCUMENT.familyRemoved.id, verdict: DOCUMENT.familyRemoved.verdict, family, pointer: "", message: `${family}: document removed` });
    } else if (!before) {
      changes.push({ rule: DOCUMENT.familyAdded.id, verdict: DOCUMENT.familyAdded.verdict, family, pointer: "", message: `${family}: new document` });
    } else {
      changes.push(...diffDocuments(before, after, { family }));
    }
  }
  return changes;
}

export function countByVerdict(changes: readonly Change[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { breaking: 0, compatible: 0, informational: 0 };
  for (const change of changes) counts[change.verdict] += 1;
  return counts;
}
