/**
 * The target file's two descriptions agree: the JSON Schema editors and the validation read
 * (target.schema.json) and the types the suites read (FamilyATarget, FamilyBTarget). A member
 * added to one and not the other fails here.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import { parseTarget, type FamilyATarget, type FamilyBTarget, type Target } from "../src/core/target.ts";
import { TARGET_SCHEMA } from "../src/core/target-validation.ts";

/** Every member required, all the way down (lists stay lists): a sample must name them all. */
type Complete<T> = {
  [K in keyof T]-?: NonNullable<T[K]> extends readonly unknown[] ? NonNullable<T[K]> : NonNullable<T[K]> extends object ? Complete<NonNullable<T[K]>> : NonNullable<T[K]>;
};

const familyA: Complete<FamilyATarget> = {
  baseUrl: "https://api.example.test",
  environment: "sandbox",
  keys: { primary: "sk_live_a", secondAccount: "sk_live_b", noMerchantRead: "sk_live_c", testKey: "sk_test_d", rateLimits: "sk_live_e", primarySecondKey: "sk_live_f" },
  webhookSecret: "whsec_x",
  cors: { origins: ["http://localhost:8080"] },
  privateWebhookTargets: "allowed",
  requestTimeoutMs: 2_000,
};

const familyB: Complete<FamilyBTarget> = {
  baseUrl: "https://sdk.example.test",
  keys: { primary: "sdk_live_a", secondAccount: "sdk_live_b", rateLimits: "sdk_live_c", primarySecondKey: "sdk_live_d" },
  plan: { general: 100, transactions: 50, pix: 30, queries: 200, windowSeconds: 60 },
  pathPrefix: { pix: "/v2", transactions: "/v2" },
  fixtures: { registeredBoletoIds: ["b1", "b2"], confirmedBoletoId: "b3", errorBoletoId: "b4", processingBoletoId: "b5", customerWithOpenChargeId: "c1", malformedCustomerId: "x", unknownCustomerId: "c2" },
  cors: { origins: ["https://console.example.test", "http://127.0.0.1:9000"] },
  requestTimeoutMs: 5_000,
};

type Schema = { properties?: Record<string, Schema>; description?: string; type?: unknown };

/** Member paths of a sample value: nested mappings are walked, lists and scalars are leaves. */
function valuePaths(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, item]) => valuePaths(item, prefix ? `${prefix}.${key}` : key));
}

function schemaPaths(schema: Schema, prefix = ""): string[] {
  if (!schema.properties) return [prefix];
  return Object.entries(schema.properties).flatMap(([key, item]) => schemaPaths(item, prefix ? `${prefix}.${key}` : key));
}

function undescribed(schema: Schema, path = "(root)"): string[] {
  const own = schema.description ? [] : [path];
  return [...own, ...Object.entries(schema.properties ?? {}).flatMap(([key, item]) => undescribed(item, `${path}.${key}`))];
}

const schema = TARGET_SCHEMA as Schema;

describe("the target file's schema", () => {
  it("names the same members as the types the suites read", () => {
    expect(schemaPaths(schema.properties!.familyA!).sort()).toEqual(valuePaths(familyA).sort());
    expect(schemaPaths(schema.properties!.familyB!).sort()).toEqual(valuePaths(familyB).sort());
    // The root: the families and mock, plus members only people and editors read.
    const target: Complete<Omit<Target, "source" | "warnings">> = { familyA, familyB, mock: "prism" };
    expect(Object.keys(schema.properties!).sort()).toEqual([...Object.keys(target), "$schema", "name", "description"].sort());
  });

  it("loads a target naming every member into those types unchanged", () => {
    expect(parseTarget({ $schema: "./target.schema.json", familyA, familyB }, "every member", {})).toEqual({ source: "every member", warnings: [], familyA, familyB });
  });

  it("takes a server's cross-origin policy as the origins browsers send, and says in one line what is wrong with one", () => {
    const load = (cors: unknown) => parseTarget({ familyB: { baseUrl: "https://sdk.example.test", cors } }, "t.json", {});
    expect(load({ origins: ["http://Console.Example.test:80/", "https://console.example.test:443"] }).familyB?.cors).toEqual({ origins: ["http://console.example.test", "https://console.example.test"] });
    const problem = (cors: unknown) => {
      try {
        load(cors);
      } catch (error) {
        return (error as Error).message;
      }
      return "no problem";
    };
    expect(problem({ origins: ["http://localhost:8080/docs"] })).toBe('t.json: familyB.cors.origins[0]: must be an origin such as http://localhost:8080 (scheme, host and port only), got "http://localhost:8080/docs"');
    expect(problem({ origins: ["*"] })).toBe('t.json: familyB.cors.origins[0]: must be an origin such as http://localhost:8080 (scheme, host and port only), got "*"');
    expect(problem({ origins: ["http://localhost:99999"] })).toBe('t.json: familyB.cors.origins[0]: not a URL: "http://localhost:99999"');
    expect(problem({ origins: [] })).toBe("t.json: familyB.cors.origins: must list at least 1, got none");
    expect(problem({ origin: ["http://localhost:8080"] })).toBe("t.json: familyB.cors.origin: unknown member; did you mean `origins`?");
  });

  it("takes a server's request timeout as a positive whole number of milliseconds, and names a misspelt one", () => {
    const problem = (section: Record<string, unknown>) => {
      try {
        parseTarget({ familyA: { baseUrl: "https://api.example.test", ...section } }, "t.json", {});
      } catch (error) {
        return (error as Error).message;
      }
      return "no problem";
    };
    expect(problem({ requestTimeoutMs: 1 })).toBe("no problem");
    expect(problem({ requestTimeoutMs: 0 })).toBe("t.json: familyA.requestTimeoutMs: must be at least 1, got 0");
    expect(problem({ requestTimeoutMs: 1.5 })).toBe("t.json: familyA.requestTimeoutMs: must be an integer, got number 1.5");
    expect(problem({ requestTimeoutMs: "2s" })).toBe('t.json: familyA.requestTimeoutMs: must be an integer, got string "2s"');
    expect(problem({ requestTimeout: 2000 })).toBe("t.json: familyA.requestTimeout: unknown member; did you mean `requestTimeoutMs`?");
  });

  it("is a valid draft-07 schema with a description for every member", () => {
    expect(new Ajv().validateSchema(TARGET_SCHEMA)).toBe(true);
    expect(undescribed(schema)).toEqual([]);
  });

  it("accepts the example target file once its variables are set", () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const raw = parseYaml(readFileSync(join(here, "../targets/example.yaml"), "utf8")) as unknown;
    const text = JSON.stringify(raw);
    const env = Object.fromEntries([...text.matchAll(/\$\{(\w+)\}/g)].map(([, name]) => [name!, name!.endsWith("_URL") ? "https://server.example.test" : `value-of-${name}`]));
    const target = parseTarget(raw, "example.yaml", env);
    expect(target.warnings).toEqual([]);
    expect(target.familyA?.baseUrl).toBe("https://server.example.test");
    expect(target.familyB?.fixtures.registeredBoletoIds).toHaveLength(2);
  });
});
