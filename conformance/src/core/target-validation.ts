/**
 * Validation of a target document against conformance/target.schema.json, the one description
 * of the file's members (editors read the same schema through `$schema`). Every problem is
 * reported at once, each as one line with its path: unknown members with the closest known
 * name, missing members, wrong types and values, and unset variables where a value is required.
 */
import { readFileSync } from "node:fs";
import { Ajv, type ErrorObject } from "ajv";
import { closestName } from "@payment-collection/contract/command/did-you-mean.ts";
import { formatPath, type MemberPath, type UnsetVariable } from "./target-variables.ts";

type Schema = Record<string, unknown>;

/** The published schema of the target file. */
export const TARGET_SCHEMA_PATH = new URL("../../target.schema.json", import.meta.url);
export const TARGET_SCHEMA = JSON.parse(readFileSync(TARGET_SCHEMA_PATH, "utf8")) as Schema;

// useDefaults: the schema's defaults (environment live, empty keys...) are the target's.
const validate = new Ajv({ allErrors: true, verbose: true, useDefaults: true, allowUnionTypes: true }).compile(TARGET_SCHEMA);

/** One problem of a target file: where, and one line saying it (the path first). */
export interface TargetProblem {
  path: MemberPath;
  text: string;
}

export interface TargetValidation {
  problems: TargetProblem[];
  /** Unset variables whose value may be missing: their members are dropped. */
  missing: UnsetVariable[];
  /** One line per missing value, naming its variable. */
  warnings: TargetProblem[];
}

function segments(instancePath: string): MemberPath {
  if (instancePath === "") return [];
  return instancePath
    .slice(1)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

const startsWith = (path: MemberPath, prefix: MemberPath) => prefix.every((segment, i) => path[i] === segment);

/** The schema of the member at a path (undefined past the schema's members). */
function schemaAt(path: MemberPath): Schema | undefined {
  let schema: Schema | undefined = TARGET_SCHEMA;
  for (const segment of path) {
    if (!schema) return undefined;
    schema = typeof segment === "number" ? (schema.items as Schema | undefined) : ((schema.properties as Record<string, Schema> | undefined)?.[segment]);
  }
  return schema;
}

function isRequired(path: MemberPath): boolean {
  const last = path.at(-1);
  if (typeof last !== "string") return false;
  return ((schemaAt(path.slice(0, -1))?.required as string[] | undefined) ?? []).includes(last);
}

function knownMembers(schema: Schema | undefined): string[] {
  return Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {});
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** What each pattern of the schema stands for, read from the members that carry it. */
const PATTERN_WANTED = new Map<unknown, string>([
  [schemaAt(["familyA", "baseUrl"])?.pattern, "an http(s) URL such as https://api.example.com"],
  [schemaAt(["familyA", "cors", "origins", 0])?.pattern, "an origin such as http://localhost:8080 (scheme, host and port only)"],
]);

const WANTED: Record<string, string> = { string: "a string", integer: "an integer", number: "a number", object: "a mapping", array: "a list", "string,integer": "a string" };

/** One line for one schema error, or undefined when another line says it better. */
function describe(error: ErrorObject, unknown: Map<string, string | undefined>): TargetProblem | undefined {
  const path = segments(error.instancePath);
  const where = formatPath(path);
  switch (error.keyword) {
    case "additionalProperties": {
      const member = String(error.params.additionalProperty);
      const known = knownMembers(error.parentSchema as Schema);
      const guess = unknown.get(formatPath([...path, member]));
      const hint = guess ? `did you mean \`${guess}\`?` : `known members: ${known.join(", ")}`;
      return { path: [...path, member], text: `${formatPath([...path, member])}: unknown member; ${hint}` };
    }
    case "required": {
      const member = String(error.params.missingProperty);
      // A misspelt member already names it ("did you mean `baseUrl`?").
      if ([...unknown.entries()].some(([at, guess]) => guess === member && at.startsWith(where === "(root)" ? "" : `${where}.`))) return undefined;
      return { path: [...path, member], text: `${formatPath([...path, member])}: required, missing` };
    }
    case "type":
      return { path, text: `${where}: must be ${WANTED[String(error.params.type)] ?? String(error.params.type)}, got ${typeName(error.data)}` };
    case "enum":
      return { path, text: `${where}: must be ${(error.params.allowedValues as unknown[]).map(String).join(" or ")}, got ${typeName(error.data)}` };
    case "pattern":
      return { path, text: `${where}: must be ${PATTERN_WANTED.get(error.params.pattern) ?? `of the form ${String(error.params.pattern)}`}, got ${JSON.stringify(error.data)}` };
    case "minItems":
      return { path, text: `${where}: must list at least ${String(error.params.limit)}, got none` };
    case "minimum":
      return { path, text: `${where}: must be at least ${String(error.params.limit)}, got ${JSON.stringify(error.data)}` };
    default:
      return { path, text: `${where}: ${error.message ?? error.keyword}` };
  }
}

/** Fills in the schema's defaults (again after values were dropped: `keys: "${UNSET}"` leaves `{}`). */
export function applyTargetDefaults(document: unknown): void {
  validate(document);
}

/** A baseUrl or an origin that matches the schema's pattern may still not parse as a URL. */
function urlProblems(document: unknown): TargetProblem[] {
  const problems: TargetProblem[] = [];
  for (const family of ["familyA", "familyB"]) {
    const section = (document as Record<string, Record<string, unknown> | undefined>)?.[family];
    const cors = section?.cors as { origins?: unknown } | undefined;
    const urls: Array<[MemberPath, unknown]> = [[[family, "baseUrl"], section?.baseUrl], ...(Array.isArray(cors?.origins) ? cors.origins : []).map((origin, i): [MemberPath, unknown] => [[family, "cors", "origins", i], origin])];
    for (const [path, url] of urls) {
      if (typeof url !== "string" || !/^https?:\/\//.test(url)) continue;
      try {
        new URL(url);
      } catch {
        problems.push({ path, text: `${formatPath(path)}: not a URL: ${JSON.stringify(url)}` });
      }
    }
  }
  return problems;
}

/**
 * Validates an interpolated document (defaults filled in place). `unset` lists the strings
 * whose variable is not set: where the member is required that is a problem naming the
 * variable; elsewhere the value counts as missing, with a warning.
 */
export function validateTargetDocument(document: unknown, unset: UnsetVariable[]): TargetValidation {
  validate(document);
  const errors = validate.errors ?? [];
  const unsetAt = (path: MemberPath) => unset.some((u) => startsWith(path, u.path));
  // The unknown members first: their guesses make a "required" line redundant.
  const unknown = new Map<string, string | undefined>();
  for (const error of errors.filter((e) => e.keyword === "additionalProperties")) {
    const path = [...segments(error.instancePath), String(error.params.additionalProperty)];
    unknown.set(formatPath(path), closestName(String(error.params.additionalProperty), knownMembers(error.parentSchema as Schema)));
  }
  const lines: TargetProblem[] = [];
  let noFamily = false;
  for (const error of errors) {
    // The root's "familyA or familyB" is one anyOf: one line, below, instead of three.
    if (error.schemaPath.startsWith("#/anyOf")) {
      noFamily = true;
      continue;
    }
    const line = describe(error, unknown);
    // A value naming an unset variable is judged by whether it may be missing, not by its text.
    if (line && !unsetAt(line.path)) lines.push(line);
  }
  const missing: UnsetVariable[] = [];
  const warnings: TargetProblem[] = [];
  for (const u of unset) {
    const under = [...unknown.keys()].some((at) => formatPath(u.path).startsWith(at));
    if (under) continue;
    if (isRequired(u.path)) lines.push({ path: u.path, text: `${formatPath(u.path)}: environment variable ${u.variable} is not set` });
    else {
      missing.push(u);
      warnings.push({ path: u.path, text: `${formatPath(u.path)}: environment variable ${u.variable} is not set; the value counts as missing` });
    }
  }
  // Without a family, a root member close to a family's name is the likely cause, already named.
  const misspeltFamily = [...unknown.entries()].some(([at, guess]) => !at.includes(".") && (guess === "familyA" || guess === "familyB"));
  if (noFamily && !misspeltFamily) lines.unshift({ path: [], text: "(root): the target names no server: add familyA, familyB or both" });
  const seen = new Set<string>();
  // In the order of their paths, so that a member's problems stand together.
  const byPath = (x: TargetProblem, y: TargetProblem) => (formatPath(x.path) < formatPath(y.path) ? -1 : formatPath(x.path) > formatPath(y.path) ? 1 : 0);
  const problems = [...lines, ...urlProblems(document)].filter((p) => !seen.has(p.text) && seen.add(p.text)).sort(byPath);
  return { problems, missing, warnings };
}
