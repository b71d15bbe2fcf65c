/**
 * Code samples per operation, added to the docs-build copy of the OpenAPI as `x-codeSamples`
 * (Redoc shows them next to the operation). Every sample is derived from the operation itself:
 * method, path, parameters with their examples, the request body example, the server and the
 * security scheme of the document. Nothing is written per operation by hand.
 *
 * Two samples: this package's typed client (when the client exports the family's factory) and
 * curl.
 */
import { deref, exampleOf, isObject, operationsOf, type ContractOperation, type ContractParameter, type Json as JsonObject } from "@payment-collection/contract/model/index.ts";

/** How a family is called through the package's client. */
export interface ClientBinding {
  /** Module specifier a consumer imports the client from. */
  importFrom: string;
  /** Factory exported by the client. */
  factory: string;
  /** Variable holding the client in the samples. */
  variable: string;
  /** Source of the factory's options object. */
  options: string;
}

export interface SampleContext {
  /** Environment variable the samples read the API key from. */
  apiKeyVariable: string;
  /** Present when the package's client covers this document. */
  client?: ClientBinding;
}

interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

interface ParameterExample {
  name: string;
  location: "path" | "query" | "header" | "cookie";
  value: unknown;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A JavaScript literal of a JSON value: unquoted keys where possible, two-space indents. */
export function jsLiteral(value: unknown, indent = ""): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((item) => `${inner}${jsLiteral(item, inner)}`).join(",\n")},\n${indent}]`;
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const lines = entries.map(([key, item]) => `${inner}${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${jsLiteral(item, inner)}`);
    return `{\n${lines.join(",\n")},\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** The first server URL with its variables replaced by their defaults. */
export function serverUrl(document: JsonObject): string {
  const servers = Array.isArray(document.servers) ? (document.servers as JsonObject[]) : [];
  const first = servers[0];
  if (!isObject(first) || typeof first.url !== "string") return "https://api.example";
  const variables = isObject(first.variables) ? first.variables : {};
  return first.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isObject(variable) && typeof variable.default === "string" ? variable.default : whole;
  }).replace(/\/$/, "");
}

/** The header that carries the API key, from the document's security schemes. */
export function apiKeyHeader(document: JsonObject, operation: JsonObject): string | undefined {
  const schemes = isObject(document.components) && isObject(document.components.securitySchemes) ? document.components.securitySchemes : {};
  const requirements = (Array.isArray(operation.security) ? operation.security : Array.isArray(document.security) ? document.security : []) as JsonObject[];
  for (const requirement of requirements) {
    for (const name of Object.keys(requirement)) {
      const scheme = schemes[name];
      if (isObject(scheme) && scheme.type === "apiKey" && scheme.in === "header" && typeof scheme.name === "string") return scheme.name;
    }
  }
  return undefined;
}

function parameterExamples(document: JsonObject, declared: readonly ContractParameter[]): ParameterExample[] {
  const examples: ParameterExample[] = [];
  for (const { raw: parameter } of declared) {
    if (typeof parameter.name !== "string" || typeof parameter.in !== "string") continue;
    let example = exampleOf(parameter);
    if (!example.found) example = exampleOf(deref(document, parameter.schema));
    if (!example.found && parameter.required === true && isObject(parameter.schema) && "default" in parameter.schema) {
      example = { found: true, value: parameter.schema.default };
    }
    // Optional parameters without an example are left out; required ones get a visible placeholder.
    if (!example.found && parameter.required !== true) continue;
    examples.push({
      name: parameter.name,
      location: parameter.in as ParameterExample["location"],
      value: example.found ? example.value : `<${parameter.name}>`,
    });
  }
  return examples;
}

function requestBodyExample(document: JsonObject, operation: ContractOperation): { found: true; value: unknown } | { found: false } {
  const body = operation.requestBody?.raw;
  if (!body || !isObject(body.content)) return { found: false };
  const media = body.content["application/json"] ?? Object.values(body.content)[0];
  if (!isObject(media)) return { found: false };
  const direct = exampleOf(media);
  return direct.found ? direct : exampleOf(deref(document, media.schema));
}

/** Name of the result variable: the operation id without its leading verb (createCharge -> charge). */
export function resultName(operationId: string): string {
  const rest = operationId.replace(/^(create|get|update|delete|cancel|list|query|pay|read)(?=[A-Z])/, "");
  const name = rest.charAt(0).toLowerCase() + rest.slice(1);
  return IDENTIFIER.test(name) && name.length > 0 ? name : "result";
}

function clientSample(entry: ContractOperation, parameters: ParameterExample[], body: { found: boolean; value?: unknown }, binding: ClientBinding): string {
  const groups: Record<string, Record<string, unknown>> = {};
  for (const parameter of parameters) {
    if (parameter.location === "cookie") continue;
    (groups[parameter.location] ??= {})[parameter.name] = parameter.value;
  }
  const init: Record<string, unknown> = {};
  if (Object.keys(groups).length > 0) init.params = groups;
  if (body.found) init.body = body.value;
  const callArguments = Object.keys(init).length > 0 ? `${JSON.stringify(entry.path)}, ${jsLiteral(init, "  ")}` : JSON.stringify(entry.path);
  const v = binding.variable;
  return [
    `import { ${binding.factory} } from ${JSON.stringify(binding.importFrom)};`,
    "",
    `const ${v} = ${binding.factory}(${binding.options});`,
    "",
    `const ${resultName(entry.operationId)} = await ${v}.unwrap(`,
    `  ${v}.${entry.method.toUpperCase()}(${callArguments}),`,
    ");",
  ].join("\n");
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function curlSample(document: JsonObject, entry: ContractOperation, parameters: ParameterExample[], body: { found: boolean; value?: unknown }, apiKeyVariable: string): string {
  let path = entry.path;
  const query = new URLSearchParams();
  const headers: string[] = [];
  for (const parameter of parameters) {
    const text = typeof parameter.value === "string" ? parameter.value : JSON.stringify(parameter.value);
    if (parameter.location === "path") path = path.replace(`{${parameter.name}}`, encodeURIComponent(text));
    else if (parameter.location === "query") query.append(parameter.name, text);
    else if (parameter.location === "header") headers.push(`${parameter.name}: ${text}`);
  }
  const url = `${serverUrl(document)}${path}${query.size > 0 ? `?${query.toString()}` : ""}`;
  const lines = [`curl -X ${entry.method.toUpperCase()} ${shellQuote(url)}`];
  const keyHeader = apiKeyHeader(document, entry.operation);
  if (keyHeader) lines.push(`-H "${keyHeader}: $${apiKeyVariable}"`);
  for (const header of headers) lines.push(`-H ${shellQuote(header)}`);
  if (body.found) {
    lines.push(`-H 'Content-Type: application/json'`);
    lines.push(`-d ${shellQuote(JSON.stringify(body.value, null, 2))}`);
  }
  return lines.join(" \\\n  ");
}

/** Returns a copy of `document` where every operation carries `x-codeSamples`. */
export function addCodeSamples(document: JsonObject, context: SampleContext): JsonObject {
  const copy = structuredClone(document);
  for (const entry of operationsOf(copy)) {
    const parameters = parameterExamples(copy, entry.parameters);
    const body = requestBodyExample(copy, entry);
    const samples: CodeSample[] = [];
    if (context.client) samples.push({ lang: "JavaScript", label: "TypeScript client", source: clientSample(entry, parameters, body, context.client) });
    samples.push({ lang: "Shell", label: "curl", source: curlSample(copy, entry, parameters, body, context.apiKeyVariable) });
    entry.operation["x-codeSamples"] = samples;
  }
  return copy;
}
