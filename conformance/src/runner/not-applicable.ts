/**
 * The checks a run could not apply, grouped by what would run them. A reason names what it
 * lacked the way the checks write it: a member of the target file (`familyB.fixtures.X`,
 * `key "secondAccount"`, `keys.rateLimits`, `environment: sandbox`), an option of this command
 * (`--profile full`, `--no-exhaust`, `--exhaust-cap`), or an option of the server
 * (`--allow-private-webhooks`). What each member or option is for is read from where it is
 * defined (target.schema.json, the command's usage), never written again here. A reason that
 * names none of them depends on the server's answers: no setting of the run changes it.
 */
import { familyName, FAMILY_IDS, type FamilyId } from "@payment-collection/contract/model/index.ts";
import type { CheckResult, RunReport } from "../core/results.ts";
import { TARGET_KEYS } from "../core/target.ts";
import { TARGET_SCHEMA } from "../core/target-validation.ts";
import { OPTIONS, USAGE } from "./cli-options.ts";

/** What would run a check: in the target file, on this command's line, on the server, or nothing the run sets. */
export type RemedyKind = "target" | "option" | "server" | "answers";

export interface Remedy {
  kind: RemedyKind;
  /** What to change: `familyB.fixtures.confirmedBoletoId`, `--profile full`, `--allow-private-webhooks`; "" for answers. */
  subject: string;
  /** One line: what to do. */
  change: string;
  /** What the member or option is for, from its definition. */
  about?: string;
}

export interface NotApplicableGroup {
  remedy: Remedy;
  /** The distinct reasons behind the group, each with its checks, most checks first. */
  reasons: Array<{ reason: string; checks: CheckResult[] }>;
  count: number;
}

type Schema = { description?: string; properties?: Record<string, Schema>; items?: Schema };

/** Every member of the target file with its description: `familyA.keys.primary` -> "A key of the first account...". */
const MEMBERS: Map<string, string> = (() => {
  const out = new Map<string, string>();
  const walk = (schema: Schema, path: string) => {
    for (const [name, child] of Object.entries(schema.properties ?? {})) {
      const member = path ? `${path}.${name}` : name;
      out.set(member, child.description ?? "");
      walk(child, member);
    }
  };
  walk(TARGET_SCHEMA as Schema, "");
  return out;
})();

/** The usage text of an option: its lines in `--help`, joined. */
function usageOf(option: string): string | undefined {
  const lines = USAGE.split("\n");
  const at = lines.findIndex((line) => new RegExp(`^\\s+(-\\w, )?--${option}\\b`).test(line));
  if (at < 0) return undefined;
  // The option, its value's placeholder (`FILE`, `seed|full`) if it takes one, then the text.
  const text = [lines[at]!.replace(new RegExp(`^\\s+(-\\w, )?--${option}( ([A-Z]+|\\S*\\|\\S*))?\\s+`), "")];
  for (let i = at + 1; i < lines.length && /^\s{10,}\S/.test(lines[i]!); i++) text.push(lines[i]!.trim());
  return text.join(" ");
}

/** A member of the target file the reason names, resolved within the check's family. */
function memberIn(reason: string, family: FamilyId): string | undefined {
  const section = TARGET_KEYS[family];
  // Named in full: familyB.fixtures.confirmedBoletoId, familyA.webhookSecret, familyA.
  const full = [...reason.matchAll(/\b(family[AB](?:\.[A-Za-z]+)*)/g)].map((m) => m[1]!).filter((path) => MEMBERS.has(path));
  if (full.length > 0) return full.sort((a, b) => b.length - a.length)[0];
  const candidates: string[] = [];
  // `key "secondAccount"` (with the family's name, or not), `keys.rateLimits`, `fixtures.x`.
  for (const m of reason.matchAll(/\bkey "([A-Za-z]+)"/g)) candidates.push(`keys.${m[1]}`);
  for (const m of reason.matchAll(/\b((?:keys|fixtures|plan|pathPrefix)\.[A-Za-z]+)/g)) candidates.push(m[1]!);
  // `environment: sandbox`: a member with its value.
  for (const m of reason.matchAll(/\b([A-Za-z]+): /g)) candidates.push(m[1]!);
  const own = reason.includes(familyName(family)) || !FAMILY_IDS.some((f) => f !== family && reason.includes(familyName(f)));
  const scope = own ? section : TARGET_KEYS[FAMILY_IDS.find((f) => f !== family)!];
  const found = candidates.map((c) => `${scope}.${c}`).find((path) => MEMBERS.has(path));
  if (found) return found;
  // A member's own name in camelCase (`the target's testKey`), wherever it sits in the family's section.
  const names = new Set([...reason.matchAll(/\b([a-z]+[A-Z][A-Za-z]*)\b/g)].map((m) => m[1]!));
  return [...MEMBERS.keys()].find((path) => path.startsWith(`${scope}.`) && names.has(path.slice(path.lastIndexOf(".") + 1)));
}

/** The first option the reason names (`--profile full`), with its value when it takes one. */
function optionIn(reason: string): { name: string; value?: string; ours: boolean } | undefined {
  const m = /(?:^|[\s(])--([a-z][a-z-]*)(?:[ =]([A-Za-z0-9._-]+))?/.exec(reason);
  if (!m) return undefined;
  const name = m[1]!;
  const spec = (OPTIONS as Record<string, { type: string }>)[name];
  if (!spec) return { name, ours: false };
  return { name, value: spec.type === "string" ? m[2] : undefined, ours: true };
}

/** What would run a not-applicable check, from its reason. */
export function remedyOf(result: Pick<CheckResult, "family" | "reasons">): Remedy {
  const reason = result.reasons[0] ?? "";
  const option = optionIn(reason);
  if (option?.ours) {
    const shown = `--${option.name}${option.value ? ` ${option.value}` : ""}`;
    const spec = (OPTIONS as Record<string, { type: string }>)[option.name]!;
    // A switch named in a reason is one the run was given; an option with a value, the one to give.
    const change = spec.type === "boolean" ? `run without ${shown}` : option.value ? `run with ${shown}` : `change ${shown}`;
    return { kind: "option", subject: shown, change, about: usageOf(option.name) };
  }
  const member = memberIn(reason, result.family);
  if (member) {
    return { kind: "target", subject: member, change: `set ${member} in the target file`, about: MEMBERS.get(member) || undefined };
  }
  if (option) return { kind: "server", subject: `--${option.name}`, change: `start the server with --${option.name}` };
  return { kind: "answers", subject: "", change: "nothing this run sets: the server's answers decided it" };
}

const ORDER: Record<RemedyKind, number> = { option: 0, target: 1, server: 2, answers: 3 };

/** The run's not-applicable checks, grouped by remedy (most checks first within a kind), then by reason. */
export function notApplicableGroups(report: Pick<RunReport, "results">): NotApplicableGroup[] {
  const groups = new Map<string, NotApplicableGroup>();
  for (const result of report.results) {
    if (result.verdict !== "not-applicable") continue;
    const remedy = remedyOf(result);
    const key = `${remedy.kind} ${remedy.subject}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { remedy, reasons: [], count: 0 }));
    const reason = result.reasons[0] ?? "not applicable";
    let entry = group.reasons.find((r) => r.reason === reason);
    if (!entry) group.reasons.push((entry = { reason, checks: [] }));
    entry.checks.push(result);
    group.count += 1;
  }
  for (const group of groups.values()) group.reasons.sort((a, b) => b.checks.length - a.checks.length);
  return [...groups.values()].sort((a, b) => ORDER[a.remedy.kind] - ORDER[b.remedy.kind] || b.count - a.count);
}
