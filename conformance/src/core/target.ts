/**
 * The target file: which servers to check and with which keys and fixtures.
 *
 * JSON or YAML, described by conformance/target.schema.json (the members, their types and
 * descriptions; editors use it through `$schema`) and validated against it, every problem at
 * once (target-validation.ts). Any string may name environment variables as `${NAME}` so that
 * CI secrets stay out of files (target-variables.ts): a key or fixture whose variable is unset
 * counts as missing, and makes only the checks that need it "not applicable"; a baseUrl whose
 * variable is unset is an error.
 *
 * The types below are the target after loading (defaults filled in, URLs and prefixes
 * normalised); test/target-schema.test.ts checks that they and the schema name the same members.
 *
 * What each member means is said once, in the schema's descriptions.
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { parse as parseYaml } from "yaml";
import { firstLine } from "@payment-collection/contract/command/command-line.ts";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import { applyTargetDefaults, validateTargetDocument, type TargetProblem } from "./target-validation.ts";
import { interpolate, removeMembers, type UnsetVariable } from "./target-variables.ts";

export interface FamilyATarget {
  baseUrl: string;
  environment: "live" | "sandbox";
  keys: { primary?: string; secondAccount?: string; noMerchantRead?: string; testKey?: string; rateLimits?: string; primarySecondKey?: string };
  /** Webhook signing secret of the primary key's account. */
  webhookSecret?: string;
  /** Whether the server calls non-public webhook targets (D48). */
  privateWebhookTargets?: "refused" | "allowed";
  cors?: CorsPolicyDeclared;
  /** The server's request timeout in milliseconds, when declared (D39's 408). */
  requestTimeoutMs?: number;
}

/**
 * The cross-origin policy a target declares for a server (D44): the origins it grants, each
 * as browsers send it (`scheme://host[:port]`, normalised on loading).
 */
export interface CorsPolicyDeclared {
  origins: string[];
}

/** Per-minute rate limits of an account plan, by the document's Limits table's resources. */
export interface RateLimitPlanFigures {
  general: number;
  transactions: number;
  pix: number;
  queries: number;
}

/**
 * A plan a target declares: the figures, and the window they apply to when it is not the
 * published minute (a sandbox run on short windows, so that waiting for a renewal is short).
 */
export interface DeclaredRateLimitPlan extends RateLimitPlanFigures {
  /** Window length in seconds (default 60: the published limits are per minute). */
  windowSeconds?: number;
}

export interface FamilyBTarget {
  baseUrl: string;
  keys: { primary?: string; secondAccount?: string; rateLimits?: string; primarySecondKey?: string };
  /**
   * The accounts' declared plan (limits per window, a minute unless it says otherwise); absent:
   * the published figures. Both the limits a server enforces without headers and the
   * `X-RateLimit-Limit` and `X-RateLimit-Reset` it announces are held to it.
   */
  plan?: DeclaredRateLimitPlan;
  pathPrefix: { pix: string; transactions: string };
  fixtures: {
    registeredBoletoIds: string[];
    confirmedBoletoId?: string;
    /** A boleto in ERROR and one in PROCESSING: the other states a cancel must refuse. */
    errorBoletoId?: string;
    processingBoletoId?: string;
    customerWithOpenChargeId?: string;
    malformedCustomerId?: string;
    unknownCustomerId?: string;
  };
  cors?: CorsPolicyDeclared;
  /** The server's request timeout in milliseconds, when declared (D39's 408). */
  requestTimeoutMs?: number;
}

export interface Target {
  /** Where the target came from, for the report. */
  source: string;
  familyA?: FamilyATarget;
  familyB?: FamilyBTarget;
  /** The servers are a stateless mock (Prism) of the contract. */
  mock?: "prism";
  /** What did not stop loading: values missing because their variable is unset. */
  warnings: string[];
}

/** The member of a target file that describes a family's server: the family id in camelCase. */
export const TARGET_KEYS = { "family-a": "familyA", "family-b": "familyB" } as const satisfies Record<FamilyId, keyof Target>;

/** A family's server as the target describes it (undefined when the target names none). */
export function familyTarget(target: Target, family: FamilyId): FamilyATarget | FamilyBTarget | undefined {
  return target[TARGET_KEYS[family]];
}

/** A target file that cannot be used: every problem, one line each with its path. */
export class TargetError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    // One problem on one line; several listed at once, one line each with its path.
    super(problems.length === 1 ? `${source}: ${problems[0]}` : `${source}: ${problems.length} problems in the target file:\n  ${problems.join("\n  ")}`);
  }
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface TargetOptions {
  /** The families the run checks (default both): problems in another family's section do not stop it. */
  families?: FamilyId[];
}

/** Prefix of a path segment: "" or "/something" without a trailing slash. */
function pathPrefix(value: unknown): string {
  const prefix = typeof value === "string" ? value : "";
  if (prefix === "" || prefix === "/") return "";
  return `/${prefix.replace(/^\/+|\/+$/g, "")}`;
}

/** An id given as a number in YAML is the same id as a string; an empty one is missing. */
function ids(values: Json): Json {
  return Object.fromEntries(
    Object.entries(values)
      .map(([name, value]) => [name, Array.isArray(value) ? value.map(String).filter(Boolean) : typeof value === "number" ? String(value) : value])
      .filter(([, value]) => value !== ""),
  );
}

/** Drops empty strings: an empty key or secret is a missing one. */
function present(values: Json): Json {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ""));
}

/** A family's section as the suites use it (defaults are already in place, from the schema). */
function familySection(section: Json): Json {
  const out: Json = { ...present(section), baseUrl: String(section.baseUrl).replace(/\/+$/, "") };
  if (isObject(section.keys)) out.keys = present(section.keys);
  if (isObject(section.fixtures)) out.fixtures = ids(section.fixtures);
  if (isObject(section.pathPrefix)) out.pathPrefix = { pix: pathPrefix(section.pathPrefix.pix), transactions: pathPrefix(section.pathPrefix.transactions) };
  // An origin as browsers send it: `HTTP://Example.com:80/` is `http://example.com`.
  if (isObject(section.cors) && Array.isArray(section.cors.origins)) out.cors = { origins: [...new Set(section.cors.origins.map((origin) => new URL(String(origin)).origin))] };
  return out;
}

/**
 * Builds a target from parsed JSON/YAML; throws TargetError listing every problem. With
 * `families`, the other family's section is used only when it has no problem.
 */
export function parseTarget(raw: unknown, source: string, env: NodeJS.ProcessEnv = process.env, options: TargetOptions = {}): Target {
  if (!isObject(raw)) throw new TargetError(source, [`(root): the target must be a mapping with familyA and/or familyB, got ${raw === null || raw === undefined ? "nothing" : typeof raw}`]);
  const unset: UnsetVariable[] = [];
  const document = interpolate(raw, env, unset) as Json;
  const validation = validateTargetDocument(document, unset);
  const checked = (options.families ?? (Object.keys(TARGET_KEYS) as FamilyId[])).map((family) => TARGET_KEYS[family] as string);
  const sections = Object.values(TARGET_KEYS) as string[];
  const inScope = (problem: TargetProblem) => !sections.includes(String(problem.path[0])) || checked.includes(String(problem.path[0]));
  const problems = validation.problems.filter(inScope).map((p) => p.text);
  if (options.families) {
    for (const family of options.families) {
      const key = TARGET_KEYS[family];
      if (document[key] === undefined) problems.push(`${key}: required by --family ${family}, missing`);
    }
  }
  if (problems.length > 0) throw new TargetError(source, problems);

  removeMembers(document, validation.missing.map((m) => m.path));
  applyTargetDefaults(document);
  const warnings = validation.warnings.filter(inScope).map((w) => w.text);
  const target: Target = { source, warnings };
  if (document.mock === "prism") target.mock = "prism";
  for (const key of sections) {
    const section = document[key];
    if (!isObject(section)) continue;
    // Another family's section with problems is left out: the run does not check that family.
    if (!checked.includes(key) && validation.problems.some((p) => p.path[0] === key)) {
      warnings.push(`${key}: not used in this run (it has problems, and --family leaves it out)`);
      continue;
    }
    (target as unknown as Json)[key] = familySection(section);
  }
  return target;
}

/** Reads a target file (`.json`, `.yaml` or `.yml`). */
export function loadTarget(path: string, env: NodeJS.ProcessEnv = process.env, options: TargetOptions = {}): Target {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EISDIR") throw new TargetError(path, ["a folder, not a target file; give the target file (JSON or YAML) in it (`payment-collection sandbox --write-target FILE` writes one for the sandbox)"]);
    throw new TargetError(path, [`cannot read the file: ${code === "ENOENT" ? "no such file" : (error as Error).message}`]);
  }
  let raw: unknown;
  const json = extname(path).toLowerCase() === ".json";
  try {
    raw = json ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new TargetError(path, [`not valid ${json ? "JSON" : "YAML"}: ${firstLine((error as Error).message)}`]);
  }
  return parseTarget(raw, path, env, options);
}
