/**
 * The build pipeline of the contract: TypeSpec -> OpenAPI 3.0 and 3.1 (YAML, JSON and a
 * dereferenced JSON) per family, written under stable names, with each family's webhook events
 * moved in by a post-emit step (addWebhooks); then TypeScript types of each
 * family (openapi-typescript on the 3.1 document) and, for the main build, the client in dist/.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { createRequire } from "node:module";
import SwaggerParser from "@apidevtools/swagger-parser";
import openapiTS, { astToString } from "openapi-typescript";
import { stringify as toYaml } from "yaml";
import { CONTRACT_ROOT, CONTROL_SERVICES, FAMILIES, OPENAPI_VERSIONS, openapiPath } from "../model/layout.ts";
import { LIST_FILTER_EXTENSION } from "../model/list-filters.ts";

export const ROOT = CONTRACT_ROOT;
const require = createRequire(import.meta.url);

/** The installed folder of a package (its `exports` may hide package.json). */
function packageDir(name: string): string {
  let dir = dirname(require.resolve(name));
  while (!existsSync(join(dir, "package.json")) || JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name !== name) dir = dirname(dir);
  return dir;
}

/** Runs the TypeSpec compiler into a scratch folder and returns that folder. */
function compileTypeSpec(): string {
  const scratch = mkdtempSync(join(tmpdir(), "tsp-"));
  const tsp = join(packageDir("@typespec/compiler"), "cmd/tsp.js");
  execFileSync(process.execPath, [tsp, "compile", join(ROOT, "spec/main.tsp"), "--output-dir", scratch], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return join(scratch, "openapi3");
}

/**
 * Writes one output file only when its content changed, whole then renamed: a build beside a
 * running reader (the main job rebuilds while tests read generated/) never shows it a half file.
 */
function write(outDir: string, path: string, content: string, written: string[]): void {
  const target = join(outDir, path);
  written.push(path);
  if (existsSync(target) && readFileSync(target, "utf8") === content) return;
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.tmp`;
  writeFileSync(partial, content);
  renameSync(partial, target);
}

/** Removes what an earlier build wrote under `folder` and this one did not (a renamed family, a dropped variant). */
function removeStale(outDir: string, folder: string, written: string[]): void {
  const root = join(outDir, folder);
  if (!existsSync(root)) return;
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const relativePath = relative(outDir, join(entry.parentPath, entry.name));
    if (!written.includes(relativePath)) rmSync(join(outDir, relativePath));
  }
}

/** Builds the contract into `outDir` (relative to the repository root) and lists what it wrote. */
export async function buildContract(outDir: string): Promise<string[]> {
  const out = resolve(ROOT, outDir);
  const emitted = compileTypeSpec();
  const written: string[] = [];
  for (const version of OPENAPI_VERSIONS) {
    // The sandbox controls are emitted like a family, under their own name.
    for (const family of [...FAMILIES, ...CONTROL_SERVICES]) {
      const base = join(emitted, version.emitterFolder, family.emitterName);
      const eventsBase = join(emitted, version.emitterFolder, `${family.emitterName}Events`);
      let yaml = readFileSync(`${base}.yaml`, "utf8");
      let json = readFileSync(`${base}.json`, "utf8");
      let document = JSON.parse(json) as JsonObject;
      let changed = false;
      if (existsSync(`${eventsBase}.json`)) {
        document = addWebhooks(document, JSON.parse(readFileSync(`${eventsBase}.json`, "utf8")), version.id);
        changed = true;
      }
      if (version.id === "3.0" && strictNullables(document)) changed = true;
      if (parameterOnlyExtensions(document)) changed = true;
      if (changed) {
        json = `${JSON.stringify(document, null, 2)}\n`;
        // The emitter's own YAML settings, so the rest of the document reads as emitted.
        yaml = toYaml(document, { singleQuote: true, aliasDuplicateObjects: false, lineWidth: 0, compat: "yaml-1.1" });
      }
      write(out, openapiPath(version.id, family.id, "yaml"), yaml, written);
      write(out, openapiPath(version.id, family.id, "json"), json, written);
      // A self-contained variant for tools that cannot follow $ref.
      const dereferenced = await SwaggerParser.dereference(JSON.parse(json));
      write(out, openapiPath(version.id, family.id, "dereferenced.json"), `${JSON.stringify(dereferenced, null, 2)}\n`, written);
    }
  }
  rmSync(dirname(emitted), { recursive: true, force: true });
  await writeTypes(out, written);
  removeStale(out, "openapi", written);
  removeStale(out, "types", written);
  return written;
}

// ---- Nullable references in OpenAPI 3.0 ---------------------------------------------------

/** Keywords that make a referenced schema unsuitable for inlining next to `nullable`. */
const COMPOSITION = ["allOf", "anyOf", "oneOf", "not", "$ref"];

/**
 * OpenAPI 3.0.3: `nullable: true` adds null only to the `type` of the SAME schema object; it
 * does not reach into `allOf` members. The emitter writes `T | null` over a named scalar as
 * `{type, allOf: [{$ref: T}], nullable: true}`, which strict validators (Dredd, Prism) read as
 * "never null" because the referenced member rejects null. This pass inlines the referenced
 * schema's keywords into such a node (keeping the node's own description and markings) so
 * that `nullable` sits at the level of `type`, and adds `null` to an inlined `enum`. The
 * named schema stays in components for its other users. Returns whether anything changed.
 */
export function strictNullables(document: JsonObject): boolean {
  const schemas = ((document.components as JsonObject | undefined)?.schemas ?? {}) as Record<string, JsonObject>;
  let changed = false;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    const object = node as JsonObject;
    const members = object.allOf;
    if (object.nullable === true && Array.isArray(members) && members.length === 1) {
      const ref = (members[0] as JsonObject).$ref;
      const name = typeof ref === "string" ? decodeURIComponent(ref.replace(/^#\/components\/schemas\//, "")) : undefined;
      const target = name === undefined ? undefined : schemas[name];
      if (!target || COMPOSITION.some((k) => k in target)) {
        throw new Error(`a nullable allOf over ${String(ref)} cannot be made strict-3.0 nullable by inlining`);
      }
      delete object.allOf;
      for (const [key, value] of Object.entries(target)) {
        if (key === "description" || key === "title" || key in object) continue;
        object[key] = structuredClone(value);
      }
      if (Array.isArray(object.enum) && !object.enum.includes(null)) object.enum = [...object.enum, null];
      changed = true;
    }
    for (const value of Object.values(object)) visit(value);
  };
  visit(document);
  return changed;
}

// ---- Extensions of a parameter, not of its value ---------------------------------------------

/** Extensions that speak of a parameter's role (what a list filter keeps), never of its value's schema. */
const PARAMETER_ONLY = [LIST_FILTER_EXTENSION];

/**
 * The emitter writes a query parameter's extensions on the Parameter Object and again on its
 * schema, where a `$ref` may stand (OpenAPI 3.0 ignores, and Spectral refuses, members beside
 * it). An extension of the parameter's role stays on the parameter only, with the `x-decided`
 * keywords that name it. Returns whether anything changed.
 */
export function parameterOnlyExtensions(document: JsonObject): boolean {
  let changed = false;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    const object = node as JsonObject;
    const schema = object.schema as JsonObject | undefined;
    if (typeof object.in === "string" && schema && typeof schema === "object") {
      for (const name of PARAMETER_ONLY.filter((n) => n in object && n in schema)) {
        delete schema[name];
        const decided = Array.isArray(schema["x-decided"]) ? (schema["x-decided"] as Array<{ keywords?: string[] }>) : [];
        const kept = decided.map((e) => ({ ...e, keywords: (e.keywords ?? []).filter((k) => k !== name) })).filter((e) => e.keywords.length > 0);
        if (kept.length > 0) schema["x-decided"] = kept;
        else delete schema["x-decided"];
        changed = true;
      }
    }
    for (const value of Object.values(object)) visit(value);
  };
  visit(document);
  return changed;
}

// ---- Webhooks (decisions D24 to D26) ---------------------------------------------------------

type JsonObject = Record<string, unknown>;
type EventsDocument = {
  paths: Record<string, { post: JsonObject }>;
  components?: { schemas?: Record<string, unknown>; parameters?: Record<string, unknown> };
};

/** The emitter qualifies names declared outside the emitting service: drop the namespace. */
function shortName(name: string): string {
  return name.replace(/^PaymentCollection\.[A-Za-z]+\./, "");
}

/** A deep copy of `value` whose component $refs use the short names. */
function withShortRefs<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (key, item) =>
      key === "$ref" && typeof item === "string"
        ? item.replace(/^(#\/components\/[a-z]+\/)(.*)$/i, (_, prefix: string, name: string) => prefix + encodeURIComponent(shortName(decodeURIComponent(name))))
        : item,
    ),
  ) as T;
}

function sameJson(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown): string =>
    JSON.stringify(value, (_, item) =>
      item && typeof item === "object" && !Array.isArray(item)
        ? Object.fromEntries(Object.entries(item as JsonObject).sort(([x], [y]) => x.localeCompare(y)))
        : item,
    );
  return canonical(a) === canonical(b);
}

/** Adds `entries` to a components section; a name the family already has must hold the same thing. */
function mergeComponents(target: Record<string, unknown>, entries: Record<string, unknown>, section: string): Record<string, unknown> {
  const merged = { ...target };
  for (const [name, value] of Object.entries(entries)) {
    const short = shortName(name);
    if (short in merged && !sameJson(merged[short], value)) {
      throw new Error(`webhook ${section} "${short}" differs from the family's own ${section} of that name`);
    }
    merged[short] = value;
  }
  return Object.fromEntries(Object.entries(merged).sort(([x], [y]) => x.localeCompare(y)));
}

/**
 * Moves a family's events (the operations of its event service in spec/family-a/webhooks.tsp,
 * one POST per event type routed by the type name) into the family document: in 3.1 as the
 * `webhooks` map, in 3.0 (which has no such map) as `x-webhooks`, the extension Redoc reads.
 * Either way the event payloads and the signature headers become named components.
 */
function addWebhooks(document: JsonObject, events: EventsDocument, version: string): JsonObject {
  const shortened = withShortRefs(events);
  const components = (document.components ?? {}) as Record<string, Record<string, unknown>>;
  const webhooks = Object.fromEntries(
    Object.entries(shortened.paths)
      .map(([path, item]) => [path.replace(/^\//, ""), { post: item.post }] as const)
      .sort(([x], [y]) => x.localeCompare(y)),
  );
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(document)) {
    result[key] = value;
    // Right after `paths`, where readers of the document look for operations.
    if (key === "paths") result[version === "3.1" ? "webhooks" : "x-webhooks"] = webhooks;
  }
  result.components = {
    ...components,
    parameters: mergeComponents(components.parameters ?? {}, shortened.components?.parameters ?? {}, "parameter"),
    schemas: mergeComponents(components.schemas ?? {}, shortened.components?.schemas ?? {}, "schema"),
  };
  return result;
}

// ---- TypeScript types of each family -------------------------------------------------------

/** Path of a family's generated TypeScript types relative to the generated/ folder. */
export function typesPath(family: string): string {
  return `types/${family}.ts`;
}

type HeaderParameter = { name: string; in: string; schema?: { minLength?: number; maxLength?: number } };
type OpenApiDocument = {
  servers?: Array<{ variables?: Record<string, { default: string }> }>;
  paths: Record<string, Record<string, { parameters?: unknown[] }>>;
  components?: {
    parameters?: Record<string, HeaderParameter>;
    securitySchemes?: Record<string, { type: string; in?: string; name?: string }>;
  };
};

/**
 * The few facts of a document the client needs at run time (types vanish at run time): the
 * API key header, the server variable defaults (placeholders, decision D37) and which
 * operations take an idempotency key header. Read from the document, never hand-copied.
 */
function contractFacts(document: OpenApiDocument): string {
  const apiKey = Object.values(document.components?.securitySchemes ?? {}).find((s) => s.type === "apiKey" && s.in === "header");
  const serverVariables: Record<string, string> = {};
  for (const server of document.servers ?? []) {
    for (const [name, variable] of Object.entries(server.variables ?? {})) serverVariables[name] = variable.default;
  }
  const idempotencyKeyHeaders: Record<string, { name: string; minLength: number; maxLength: number | null }> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const parameter of (operation.parameters ?? []) as Array<HeaderParameter & { $ref?: string }>) {
        const resolved = parameter.$ref
          ? document.components?.parameters?.[parameter.$ref.split("/").pop() ?? ""]
          : parameter;
        if (resolved?.in === "header" && /^(x-)?idempotency-key$/i.test(resolved.name)) {
          const { minLength = 1, maxLength = null } = resolved.schema ?? {};
          idempotencyKeyHeaders[`${method.toUpperCase()} ${path}`] = { name: resolved.name, minLength, maxLength };
        }
      }
    }
  }
  const facts = { apiKeyHeader: apiKey?.name ?? null, serverVariables, idempotencyKeyHeaders };
  return [
    "",
    "/** Run-time facts of this document used by the client (read from the document by the build). */",
    `export const contract = ${JSON.stringify(facts, null, 4)} as const;`,
    "",
  ].join("\n");
}

/** openapi-typescript on each family's OpenAPI 3.1 document, plus its run-time facts. */
async function writeTypes(out: string, written: string[]): Promise<void> {
  for (const family of FAMILIES) {
    const source = openapiPath("3.1", family.id, "json");
    const document = JSON.parse(readFileSync(join(out, source), "utf8")) as OpenApiDocument;
    // defaultNonNullable off: a property with a `default` stays optional unless `required`
    // lists it (otherwise request bodies such as expires_in would become mandatory).
    const ast = await openapiTS(document as never, { defaultNonNullable: false, silent: true });
    const banner = `/**\n * TypeScript types of ${family.title}, generated by \`npm run build\` from\n * generated/${source} with openapi-typescript. Do not edit.\n */\n\n`;
    write(out, typesPath(family.id), banner + astToString(ast) + contractFacts(document), written);
  }
}

