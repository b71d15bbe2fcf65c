/**
 * The generated OpenAPI documents are valid and usable by the tools that consume them:
 * Spectral finds nothing to object to, swagger-parser validates them, and Dredd can turn the
 * 3.0 documents into transactions (every URI parameter has an example, no request body that
 * Dredd would send empty).
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { validateAgainstOpenApiSchema, validateSpecRules } from "../src/openapi-validity.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../src/build/contract-build.ts";
import {
  formatLintReport,
  generatedYamlDocuments,
  lintFailed,
  lintOpenApiDocuments,
  type LintReport,
} from "../src/build/lint-openapi.ts";
import { FAMILIES, OPENAPI_VERSIONS, openapiPath } from "../src/model/layout.ts";
import { deref, operationsOf as modelOperations } from "../src/model/index.ts";

type Json = Record<string, unknown>;

const generated = (relativePath: string) => join(ROOT, "generated", relativePath);

const JSON_DOCUMENTS = OPENAPI_VERSIONS.flatMap((version) =>
  FAMILIES.map((family) => ({ label: `${version.id} ${family.id}`, version: version.id, file: generated(openapiPath(version.id, family.id, "json")) })),
);
const DREDD_DOCUMENTS = FAMILIES.map((family) => ({ label: `3.0 ${family.id}`, file: generated(openapiPath("3.0", family.id, "yaml")) }));

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readJson(file: string): Json {
  return JSON.parse(readFileSync(file, "utf8")) as Json;
}


interface Operation {
  name: string;
  path: string;
  operation: Json;
  parameters: Json[];
}

/** Every operation with its effective parameters (path-item level ones included, $refs followed). */
function operationsOf(document: Json): Operation[] {
  return modelOperations(document).map((op) => ({ name: `${op.method} ${op.path}`, path: op.path, operation: op.operation, parameters: op.parameters.map((p) => p.raw) }));
}

describe("Spectral lint (.spectral.yaml, extends spectral:oas)", () => {
  let reports: LintReport[];
  beforeAll(async () => {
    reports = await lintOpenApiDocuments(generatedYamlDocuments());
  });

  it.each(generatedYamlDocuments().map((file) => ({ file, name: relative(ROOT, file) })))(
    "$name has no errors and no warnings",
    ({ file }) => {
      const report = reports.find((r) => r.file === file);
      expect(report, `no lint report for ${file}`).toBeDefined();
      console.log(formatLintReport(report!));
      expect(report!.counts.error + report!.counts.warning, formatLintReport(report!)).toBe(0);
    },
  );
});

it("the lint fails on a document Spectral objects to (an operation without operationId)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "lint-guard-"));
  try {
    const document = readJson(generated(openapiPath("3.0", "family-a", "json")));
    const [{ operation }] = operationsOf(document);
    delete operation.operationId;
    const file = join(dir, "without-operation-id.json");
    writeFileSync(file, JSON.stringify(document, null, 2));
    const [report] = await lintOpenApiDocuments([file]);
    expect(report.findings.map((f) => f.code)).toContain("operation-operationId");
    expect(lintFailed([report])).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("swagger-parser validate()", () => {
  // validate() dereferences in place: it gets the file path so each run reads a fresh copy.
  it.each(JSON_DOCUMENTS)("$label passes the OpenAPI spec rules (parameters, operation ids, paths)", async ({ file }) => {
    expect(await validateSpecRules(file)).toEqual([]);
  });

  it.each(JSON_DOCUMENTS)("$label validates against the OpenAPI JSON Schema", async ({ version, file }) => {
    const { problems, tolerated } = await validateAgainstOpenApiSchema(file, version);
    if (tolerated > 0) {
      console.log(`${relative(ROOT, file)}: ${tolerated} finding(s) of the bundled 3.1 schema ignored as known false positives`);
    }
    expect(problems).toEqual([]);
  });
});

/** How many transactions Dredd should make: request media types x responses x response media types. */
function expectedDreddTransactions(document: Json): number {
  let count = 0;
  for (const { operation } of operationsOf(document)) {
    const body = deref(document, operation.requestBody);
    const requestTypes = isObject(body) && isObject(body.content) ? Math.max(1, Object.keys(body.content).length) : 1;
    for (const rawResponse of Object.values((operation.responses ?? {}) as Json)) {
      const response = deref(document, rawResponse);
      const responseTypes = isObject(response) && isObject(response.content) ? Math.max(1, Object.keys(response.content).length) : 1;
      count += requestTypes * responseTypes;
    }
  }
  return count;
}

interface DreddDryRun {
  status: number | null;
  output: string;
  errors: string[];
  /** The "N total" of Dredd's summary line. */
  total: number;
  /** The request lines it lists, e.g. `skip: GET (200) /v1/charges/ch_...`. */
  listed: string[];
  parserWarnings: number;
  seconds: number;
}

function dreddDryRun(file: string): DreddDryRun {
  const started = performance.now();
  // Dredd's output goes to a file, not a pipe: Dredd ends with process.exit(), which drops what
  // it still had queued for a pipe the reader had not drained (on a loaded machine, the summary
  // line and the last transactions). Writes to a file are synchronous: nothing is left queued.
  const dir = mkdtempSync(join(tmpdir(), "dredd-dry-run-"));
  const outputFile = join(dir, "output.txt");
  const fd = openSync(outputFile, "w");
  let run;
  try {
    // Port 9 (discard): a dry run sends nothing.
    run = spawnSync(process.execPath, [join(ROOT, "node_modules/dredd/bin/dredd"), file, "http://127.0.0.1:9", "--dry-run", "--color=false"], {
      cwd: ROOT,
      stdio: ["ignore", fd, fd],
      timeout: 120_000,
    });
  } finally {
    closeSync(fd);
  }
  const output = readFileSync(outputFile, "utf8");
  rmSync(dir, { recursive: true, force: true });
  const lines = output.split("\n");
  return {
    status: run.status,
    output,
    errors: lines.filter((line) => /^error:/.test(line)),
    total: Number(/complete: .*?(\d+) total/.exec(output)?.[1] ?? 0),
    listed: lines.filter((line) => /^skip: /.test(line)),
    parserWarnings: lines.filter((line) => /^warn: API description parser warning/.test(line)).length,
    seconds: (performance.now() - started) / 1000,
  };
}

describe("Dredd dry run on the 3.0 documents", () => {
  it.each(DREDD_DOCUMENTS)("$label yields a transaction for every response, with every URI parameter filled", ({ label, file }) => {
    const run = dreddDryRun(file);
    console.log(`dredd --dry-run ${label}: ${run.total} transactions in ${run.seconds.toFixed(1)} s (${run.parserWarnings} parser warnings)`);

    expect(run.status, run.output).toBe(0);
    expect(run.errors).toEqual([]);
    expect(run.output).not.toMatch(/has no example/i);
    expect(run.total).toBeGreaterThan(0);
    expect(run.total).toBe(expectedDreddTransactions(readJson(file.replace(/\.yaml$/, ".json"))));
    // A URI template left in a listed request path means a parameter was not filled in.
    expect(run.listed.filter((line) => /[{}]/.test(line))).toEqual([]);
  });

  it("fails, as asserted above, when a path parameter loses its example", () => {
    const document = readJson(generated(openapiPath("3.0", "family-a", "json")));
    const withPathParameter = operationsOf(document).find((op) => op.parameters.some((p) => p.in === "path"));
    expect(withPathParameter).toBeDefined();
    for (const parameter of withPathParameter!.parameters) if (parameter.in === "path") delete parameter.example;
    // That operation's path alone: Dredd's parse of the whole document is the dry runs' above.
    document.paths = { [withPathParameter!.path]: (document.paths as Json)[withPathParameter!.path] };
    const dir = mkdtempSync(join(tmpdir(), "dredd-guard-"));
    try {
      const file = join(dir, "without-path-example.json");
      writeFileSync(file, JSON.stringify(document));
      const run = dreddDryRun(file);
      expect(run.status).not.toBe(0);
      expect(run.errors.length).toBeGreaterThan(0);
      expect(run.output).toMatch(/has no example/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("shapes Dredd needs", () => {
  it.each(DREDD_DOCUMENTS)("$label: no request body schema is only allOf, and every request body has an example", ({ file }) => {
    const document = readJson(file.replace(/\.yaml$/, ".json"));
    const problems: string[] = [];
    for (const { name, operation } of operationsOf(document)) {
      const body = deref(document, operation.requestBody);
      if (!isObject(body) || !isObject(body.content)) continue;
      for (const [mediaType, media] of Object.entries(body.content)) {
        if (!isObject(media)) continue;
        const schema = deref(document, media.schema);
        // Dredd ignores allOf: a body schema made only of allOf is sent empty (dredd issue 1339).
        if (isObject(schema) && Array.isArray(schema.allOf) && !isObject(schema.properties)) {
          problems.push(`${name} ${mediaType}: request body schema is only allOf`);
        }
        if (!("example" in media)) problems.push(`${name} ${mediaType}: request body has no media-type example`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(JSON_DOCUMENTS)(
    "$label: every path parameter and required query or header parameter has a parameter-level example",
    ({ file }) => {
      const document = readJson(file);
      const missing: string[] = [];
      let checked = 0;
      for (const { name, parameters } of operationsOf(document)) {
        for (const parameter of parameters) {
          const needsExample = parameter.in === "path" || (parameter.required === true && (parameter.in === "query" || parameter.in === "header"));
          if (!needsExample) continue;
          checked += 1;
          // Dredd reads only the parameter's own `example` (not `examples`, not `schema.example`).
          if (!("example" in parameter)) missing.push(`${name}: ${parameter.in} parameter ${String(parameter.name)}`);
        }
      }
      expect(checked).toBeGreaterThan(0);
      expect(missing).toEqual([]);
    },
  );
});
