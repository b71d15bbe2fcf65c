/**
 * The changelog form of a diff: Markdown, per family, breaking changes first, then
 * compatible, then informational; within a section, grouped by operation. The CLI's
 * `--markdown` and the portal's contract changes page render the same text.
 */
import type { JudgedChange } from "./policy.ts";
import type { Change, Verdict } from "./types.ts";

const SECTIONS: ReadonlyArray<{ verdict: Verdict; title: string }> = [
  { verdict: "breaking", title: "Breaking changes" },
  { verdict: "compatible", title: "Compatible changes" },
  { verdict: "informational", title: "Informational" },
];

const FAMILY_TITLES: Record<string, string> = { "family-a": "Family A (v1)", "family-b": "Family B (SDK)" };

export interface ChangelogOptions {
  /** Top heading (`## ...`); left out when empty. */
  title?: string;
  /** Heading level of the family headings (default 3). */
  level?: number;
}

const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;

export function renderChangelog(changes: ReadonlyArray<Change | JudgedChange>, options: ChangelogOptions = {}): string {
  const level = options.level ?? 3;
  const lines: string[] = [];
  if (options.title) lines.push(`${"#".repeat(level - 1)} ${options.title}`, "");
  if (changes.length === 0) {
    lines.push("No changes to the contract.", "");
    return lines.join("\n");
  }
  const families = [...new Set(changes.map((c) => c.family))].sort();
  for (const family of families) {
    lines.push(`${"#".repeat(level)} ${FAMILY_TITLES[family] ?? family}`, "");
    for (const { verdict, title } of SECTIONS) {
      const inSection = changes.filter((c) => c.family === family && c.verdict === verdict);
      if (inSection.length === 0) continue;
      lines.push(`${"#".repeat(level + 1)} ${title} (${inSection.length})`, "");
      for (const change of inSection) {
        const where = change.operation ? `${code(change.operation)}: ` : "";
        const allowance = "allowance" in change && change.allowance ? ` (allowed: ${change.allowance})` : "";
        lines.push(`- ${where}${change.message.replace(/\s+/g, " ")} — ${code(change.rule)}${allowance}`);
      }
      lines.push("");
    }
  }
  return lines.join("\n");
}
