/**
 * The OWASP API Security rules (@stoplight/spectral-owasp-ruleset) as the contract applies
 * them, read from contract/spectral-owasp.yaml: the package's rules, the ones that do not fit
 * turned off each with its reason (a comment above it), and the project's request-only limit
 * rules. A rule turned off without a reason is a finding of its own, so the lint reports no
 * unexplained exception.
 *
 * The ruleset file is read here rather than by Spectral's bundler, which cannot load the OWASP
 * package's CommonJS build; the file keeps Spectral's format (extends, rules, given, then).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { IFunctionResult, RulesetFunctionContext } from "@stoplight/spectral-core";
import owaspRuleset from "@stoplight/spectral-owasp-ruleset";
import { isMap, isScalar, parseDocument, type Pair } from "yaml";

/** contract/spectral-owasp.yaml */
export const OWASP_RULESET_FILE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "spectral-owasp.yaml");
export const OWASP_PACKAGE = "@stoplight/spectral-owasp-ruleset";

type Schema = Record<string, unknown>;

function typesOf(schema: Schema): string[] {
  return Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === "string" ? [schema.type] : [];
}

/**
 * The schema a keyword on `schema` may also sit on: in 3.1, a nullable value is
 * `anyOf: [{type: string}, {type: "null"}]` with its bounds beside the `anyOf`.
 */
function enclosingSchema(context: RulesetFunctionContext | undefined): Schema | undefined {
  const path = context?.path ?? [];
  if (path.length < 2 || (path[path.length - 2] !== "anyOf" && path[path.length - 2] !== "oneOf")) return undefined;
  // The path is in the document with its $refs resolved, as the rules' `given` walked it.
  let node: unknown = (context?.documentInventory as { resolved?: unknown } | undefined)?.resolved ?? context?.document?.data;
  for (const segment of path.slice(0, -2)) node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[String(segment)] : undefined;
  return typeof node === "object" && node !== null ? (node as Schema) : undefined;
}

function hasAny(schema: Schema, keywords: readonly string[], context: RulesetFunctionContext | undefined): boolean {
  const enclosing = enclosingSchema(context);
  return keywords.some((keyword) => schema[keyword] !== undefined || enclosing?.[keyword] !== undefined);
}

/** A string is bounded by a length, a closed set of values, or a pattern or format that fixes its shape. */
function boundedString(input: unknown, _options: unknown, context?: RulesetFunctionContext): IFunctionResult[] {
  if (typeof input !== "object" || input === null || !typesOf(input as Schema).includes("string")) return [];
  return hasAny(input as Schema, ["maxLength", "enum", "const", "pattern", "format"], context) ? [] : [{ message: "it has no maxLength" }];
}

function boundedNumber(input: unknown, _options: unknown, context?: RulesetFunctionContext): IFunctionResult[] {
  if (typeof input !== "object" || input === null) return [];
  const types = typesOf(input as Schema);
  if (!types.includes("integer") && !types.includes("number")) return [];
  return hasAny(input as Schema, ["maximum", "exclusiveMaximum", "enum", "const"], context) ? [] : [{ message: "it has no maximum" }];
}

/** The functions the file's own rules name. */
const FUNCTIONS: Record<string, (input: unknown, options: unknown, context?: RulesetFunctionContext) => IFunctionResult[]> = {
  "request-bounded-string": boundedString,
  "request-bounded-number": boundedNumber,
};

export interface OwaspRuleset {
  /** The ruleset definition for `Spectral.setRuleset`. */
  definition: unknown;
  /** Rules turned off, with the reason the file gives. */
  off: Array<{ rule: string; reason: string }>;
  /** What is wrong with the file itself (a rule off without a reason, an unknown function). */
  problems: string[];
}

/** Reads the ruleset file: its rules, its exceptions and their reasons. */
export function loadOwaspRuleset(file: string = OWASP_RULESET_FILE): OwaspRuleset {
  const document = parseDocument(readFileSync(file, "utf8"));
  const problems: string[] = [];
  const raw = document.toJS() as { extends?: unknown[]; rules?: Record<string, unknown> };
  const extendsList = (raw.extends ?? []).map((entry) => {
    if (entry === OWASP_PACKAGE) return owaspRuleset;
    problems.push(`${file}: extends ${JSON.stringify(entry)}: only ${OWASP_PACKAGE} is known here`);
    return undefined;
  });
  const off: OwaspRuleset["off"] = [];
  const rulesNode = document.get("rules");
  const rules: Record<string, unknown> = {};
  if (isMap(rulesNode)) {
    (rulesNode.items as Pair[]).forEach((pair, index) => {
      const name = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const value = raw.rules?.[name];
      if (value === "off" || value === false) {
        // The reason is the comment above the rule (for the first rule, YAML keeps it on the map).
        const comment = (isScalar(pair.key) ? pair.key.commentBefore : undefined) ?? (index === 0 ? rulesNode.commentBefore : undefined) ?? "";
        const reason = comment.trim();
        if (reason === "") problems.push(`${file}: rule ${name} is turned off without a reason (a comment above it)`);
        off.push({ rule: name, reason });
        rules[name] = "off";
        return;
      }
      const rule = structuredClone(value) as { then?: { function?: unknown } | Array<{ function?: unknown }> };
      for (const then of Array.isArray(rule?.then) ? rule.then : rule?.then ? [rule.then] : []) {
        const implementation = typeof then.function === "string" ? FUNCTIONS[then.function] : undefined;
        if (!implementation) problems.push(`${file}: rule ${name} names an unknown function ${JSON.stringify(then.function)}`);
        else then.function = implementation;
      }
      rules[name] = rule;
    });
  }
  return { definition: { extends: extendsList.filter((entry) => entry !== undefined), rules }, off, problems };
}
