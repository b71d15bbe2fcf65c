/**
 * The target file: which servers to check and with which keys and fixtures.
 *
 * JSON or YAML. Any string may name environment variables as `${NAME}` so that CI secrets
 * stay out of files; a value whose variable is unset counts as missing, and a missing key or
 * fixture makes only the checks that need it "not applicable".
 *
 *   familyA: { baseUrl, environment: live | sandbox,
 *              keys: { primary, secondAccount, noMerchantRead, testKey, rateLimits?, primarySecondKey? },
 *              webhookSecret? }
 *   familyB: { baseUrl, keys: { primary, secondAccount, rateLimits?, primarySecondKey? },
 *              plan?: { general, transactions, pix, queries },
 *              pathPrefix: { pix, transactions },
 *              fixtures: { registeredBoletoIds: [..], confirmedBoletoId, customerWithOpenChargeId,
 *                          malformedCustomerId, unknownCustomerId } }
 *   mock: prism        # optional: the servers are a stateless Prism mock of the contract
 *
 * `rateLimits` (optional) is a key of an account set aside for the checks that use up a rate
 * limit (the 429 checks); without it they use `primary`, and run last so that nothing else
 * meets the exhausted limit.
 *
 * `primarySecondKey` (optional) is a second API key of the `primary` key's account: the document
 * scopes idempotency keys per API key, so the generic idempotency check sends one idempotency
 * key under both and expects two records; without it that part is not applicable.
 *
 * `plan` (optional, family B) declares the per-minute limits of the checked accounts' plan (the
 * document: "limits may vary by account plan"): requests per minute in general, transaction
 * creations, PIX creations and queries. Without it, a server that sends no X-RateLimit-* headers
 * is held to the published figures.
 *
 * `webhookSecret` (optional) is the webhook signing secret of the `primary` key's account
 * (Standard Webhooks `whsec_...`, decision D25): with it, the full profile verifies the
 * signature of the webhooks it receives; without it, that check is not applicable.
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { parse as parseYaml } from "yaml";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";

export interface FamilyATarget {
  baseUrl: string;
  environment: "live" | "sandbox";
  keys: { primary?: string; secondAccount?: string; noMerchantRead?: string; testKey?: string; rateLimits?: string; primarySecondKey?: string };
  /** Webhook signing secret of the primary key's account. */
  webhookSecret?: string;
}

/** Per-minute rate limits of an account plan, by the document's Limits table's resources. */
export interface RateLimitPlanFigures {
  general: number;
  transactions: number;
  pix: number;
  queries: number;
}

export interface FamilyBTarget {
  baseUrl: string;
  keys: { primary?: string; secondAccount?: string; rateLimits?: string; primarySecondKey?: string };
  /** The accounts' declared plan (limits per minute); absent: the published figures. */
  plan?: RateLimitPlanFigures;
  pathPrefix: { pix: string; transactions: string };
  fixtures: {
    registeredBoletoIds: string[];
    confirmedBoletoId?: string;
    customerWithOpenChargeId?: string;
    malformedCustomerId?: string;
    unknownCustomerId?: string;
  };
}

export interface Target {
  /** Where the target came from, for the report. */
  source: string;
  familyA?: FamilyATarget;
  familyB?: FamilyBTarget;
  /** The servers are a stateless mock (Prism) of the contract. */
  mock?: "prism";
  /** Problems that did not stop loading (unset variables, unknown members). */
  warnings: string[];
}

/** The member of a target file that describes a family's server: the family id in camelCase. */
export const TARGET_KEYS = { "family-a": "familyA", "family-b": "familyB" } as const satisfies Record<FamilyId, keyof Target>;

/** A family's server as the target describes it (undefined when the target names none). */
export function familyTarget(target: Target, family: FamilyId): FamilyATarget | FamilyBTarget | undefined {
  return target[TARGET_KEYS[family]];
}

export class TargetError extends Error {}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces `${NAME}` in every string with the environment variable. A string that names an
 * unset (or empty) variable becomes undefined: the value is missing, with a warning.
 */
export function interpolate(value: unknown, env: NodeJS.ProcessEnv, warnings: string[], where = ""): unknown {
  if (typeof value === "string") {
    let missing: string | undefined;
    const replaced = value.replace(VARIABLE, (_, name: string) => {
      const found = env[name];
      if (found === undefined || found === "") missing ??= name;
      return found ?? "";
    });
    if (missing !== undefined) {
      warnings.push(`${where || "(root)"}: environment variable ${missing} is not set; the value counts as missing`);
      return undefined;
    }
    return replaced;
  }
  if (Array.isArray(value)) {
    return value.map((item, i) => interpolate(item, env, warnings, `${where}[${i}]`)).filter((item) => item !== undefined);
  }
  if (isObject(value)) {
    const out: Json = {};
    for (const [key, item] of Object.entries(value)) {
      const replaced = interpolate(item, env, warnings, where ? `${where}.${key}` : key);
      if (replaced !== undefined) out[key] = replaced;
    }
    return out;
  }
  return value;
}

function optionalString(value: unknown, where: string, problems: string[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") {
    problems.push(`${where} must be a string`);
    return undefined;
  }
  return value.length > 0 ? value : undefined;
}

function baseUrl(value: unknown, where: string, problems: string[]): string {
  const url = optionalString(value, where, problems);
  if (!url) {
    problems.push(`${where} is required`);
    return "";
  }
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") problems.push(`${where} must be an http(s) URL`);
  } catch {
    problems.push(`${where} is not a URL: ${url}`);
  }
  return url.replace(/\/+$/, "");
}

function unknownMembers(value: Json, known: string[], where: string, warnings: string[]): void {
  for (const key of Object.keys(value)) if (!known.includes(key)) warnings.push(`${where}.${key} is not a known member; ignored`);
}

/** Prefix of a path segment: "" or "/something" without a trailing slash. */
function pathPrefix(value: unknown, where: string, problems: string[]): string {
  const prefix = optionalString(value, where, problems) ?? "";
  if (prefix === "" || prefix === "/") return "";
  return `/${prefix.replace(/^\/+|\/+$/g, "")}`;
}

/** A declared plan: the four per-minute figures, each a positive integer. */
function planFigures(value: unknown, problems: string[]): RateLimitPlanFigures | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    problems.push("familyB.plan must be a mapping of general, transactions, pix, queries");
    return undefined;
  }
  const figures: Record<string, number> = {};
  for (const name of ["general", "transactions", "pix", "queries"]) {
    const figure = Number(value[name]);
    if (!Number.isInteger(figure) || figure < 1) problems.push(`familyB.plan.${name} must be a positive integer`);
    figures[name] = figure;
  }
  return figures as unknown as RateLimitPlanFigures;
}

/** Builds a target from parsed JSON/YAML; throws TargetError when it cannot be used at all. */
export function parseTarget(raw: unknown, source: string, env: NodeJS.ProcessEnv = process.env): Target {
  const warnings: string[] = [];
  const problems: string[] = [];
  if (!isObject(raw)) throw new TargetError(`${source}: the target must be a mapping`);
  const data = interpolate(raw, env, warnings) as Json;
  unknownMembers(data, ["familyA", "familyB", "mock", "name", "description"], "target", warnings);
  const target: Target = { source, warnings };

  if (data.mock !== undefined) {
    if (data.mock !== "prism") problems.push(`mock must be "prism"`);
    else target.mock = "prism";
  }

  for (const name of ["familyA", "familyB"] as const) {
    const section = data[name];
    if (isObject(section) && section.baseUrl === undefined) {
      // Typically its variable is unset: the family is not checked, which the report says.
      warnings.push(`${name} has no baseUrl; its checks are not applicable`);
      delete data[name];
    }
  }

  if (isObject(data.familyA)) {
    const a = data.familyA;
    unknownMembers(a, ["baseUrl", "environment", "keys", "webhookSecret"], "familyA", warnings);
    const keys = isObject(a.keys) ? a.keys : {};
    unknownMembers(keys, ["primary", "secondAccount", "noMerchantRead", "testKey", "rateLimits", "primarySecondKey"], "familyA.keys", warnings);
    const environment = a.environment ?? "live";
    if (environment !== "live" && environment !== "sandbox") problems.push(`familyA.environment must be live or sandbox`);
    target.familyA = {
      baseUrl: baseUrl(a.baseUrl, "familyA.baseUrl", problems),
      environment: environment === "sandbox" ? "sandbox" : "live",
      keys: {
        primary: optionalString(keys.primary, "familyA.keys.primary", problems),
        secondAccount: optionalString(keys.secondAccount, "familyA.keys.secondAccount", problems),
        noMerchantRead: optionalString(keys.noMerchantRead, "familyA.keys.noMerchantRead", problems),
        testKey: optionalString(keys.testKey, "familyA.keys.testKey", problems),
        rateLimits: optionalString(keys.rateLimits, "familyA.keys.rateLimits", problems),
        primarySecondKey: optionalString(keys.primarySecondKey, "familyA.keys.primarySecondKey", problems),
      },
      webhookSecret: optionalString(a.webhookSecret, "familyA.webhookSecret", problems),
    };
  } else if (data.familyA !== undefined) problems.push("familyA must be a mapping");

  if (isObject(data.familyB)) {
    const b = data.familyB;
    unknownMembers(b, ["baseUrl", "keys", "pathPrefix", "fixtures", "plan"], "familyB", warnings);
    const keys = isObject(b.keys) ? b.keys : {};
    unknownMembers(keys, ["primary", "secondAccount", "rateLimits", "primarySecondKey"], "familyB.keys", warnings);
    const prefix = isObject(b.pathPrefix) ? b.pathPrefix : {};
    const fixtures = isObject(b.fixtures) ? b.fixtures : {};
    unknownMembers(
      fixtures,
      ["registeredBoletoIds", "confirmedBoletoId", "customerWithOpenChargeId", "malformedCustomerId", "unknownCustomerId"],
      "familyB.fixtures",
      warnings,
    );
    const registered = fixtures.registeredBoletoIds;
    if (registered !== undefined && !Array.isArray(registered)) problems.push("familyB.fixtures.registeredBoletoIds must be a list");
    target.familyB = {
      baseUrl: baseUrl(b.baseUrl, "familyB.baseUrl", problems),
      keys: {
        primary: optionalString(keys.primary, "familyB.keys.primary", problems),
        secondAccount: optionalString(keys.secondAccount, "familyB.keys.secondAccount", problems),
        rateLimits: optionalString(keys.rateLimits, "familyB.keys.rateLimits", problems),
        primarySecondKey: optionalString(keys.primarySecondKey, "familyB.keys.primarySecondKey", problems),
      },
      plan: planFigures(b.plan, problems),
      pathPrefix: {
        pix: pathPrefix(prefix.pix, "familyB.pathPrefix.pix", problems),
        transactions: pathPrefix(prefix.transactions, "familyB.pathPrefix.transactions", problems),
      },
      fixtures: {
        registeredBoletoIds: Array.isArray(registered)
          ? registered.map((id, i) => optionalString(id, `familyB.fixtures.registeredBoletoIds[${i}]`, problems)).filter((id): id is string => !!id)
          : [],
        confirmedBoletoId: optionalString(fixtures.confirmedBoletoId, "familyB.fixtures.confirmedBoletoId", problems),
        customerWithOpenChargeId: optionalString(fixtures.customerWithOpenChargeId, "familyB.fixtures.customerWithOpenChargeId", problems),
        malformedCustomerId: optionalString(fixtures.malformedCustomerId, "familyB.fixtures.malformedCustomerId", problems),
        unknownCustomerId: optionalString(fixtures.unknownCustomerId, "familyB.fixtures.unknownCustomerId", problems),
      },
    };
  } else if (data.familyB !== undefined) problems.push("familyB must be a mapping");

  if (!target.familyA && !target.familyB) problems.push("the target names neither familyA nor familyB");
  if (problems.length > 0) throw new TargetError(`${source}:\n  ${problems.join("\n  ")}`);
  return target;
}

/** Reads a target file (`.json`, `.yaml` or `.yml`). */
export function loadTarget(path: string, env: NodeJS.ProcessEnv = process.env): Target {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new TargetError(`cannot read target file ${path}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = extname(path).toLowerCase() === ".json" ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new TargetError(`target file ${path} is not valid ${extname(path) === ".json" ? "JSON" : "YAML"}: ${(error as Error).message}`);
  }
  return parseTarget(raw, path, env);
}
