/**
 * `payment-collection contract <path | validate | diff>`: where the bundled OpenAPI documents
 * are, whether an OpenAPI document is valid, and which changes between two versions of the
 * contract break clients. Returns exit codes; never exits the process itself.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { didYouMean, firstLine, readCommandLine, refuse, UsageError, type OptionSpecs } from "./command-line.ts";
import { parse as parseYaml } from "yaml";
import { FAMILY_IDS, isFamilyId, OPENAPI_VERSIONS, type OpenApiVersionId } from "../model/layout.ts";
import { validateAgainstOpenApiSchema, validateSpecRules } from "../openapi-validity.ts";
import { main as diffMain } from "../diff/cli.ts";
import { bundledDocuments, DOCUMENT_KINDS, type DocumentKind } from "./bundled-documents.ts";

export const USAGE = `usage: payment-collection contract <subcommand> [options]

  path [--family ID] [--openapi 3.0|3.1] [--format yaml|json|dereferenced.json]
        print the absolute paths of the bundled OpenAPI documents, one per line
        (all of them, or those matching the filters)
  validate [FILE...]
        check that each OpenAPI document (YAML or JSON; default: every bundled one) follows
        the OpenAPI specification and its JSON Schema; one line per problem
  diff --base <git ref | folder | file> [--head <folder | file>] [--json | --markdown]
        classify the changes between two versions of the contract (breaking, compatible,
        informational); see \`payment-collection contract diff --help\`

  -h, --help   this help

Exit codes: 0 done (documents valid, no breaking change the version does not allow);
1 a document is invalid, or a breaking change the version does not allow; 2 bad input.`;

const PATH_USAGE = `usage: payment-collection contract path [--family ${FAMILY_IDS.join("|")}] [--openapi 3.0|3.1] [--format ${DOCUMENT_KINDS.join("|")}]`;
const VALIDATE_USAGE = "usage: payment-collection contract validate [FILE...]   (default: every bundled document)";

const SUBCOMMANDS = ["path", "validate", "diff"];

function fail(command: string, message: string): number {
  return refuse(command, message);
}

function parse(command: string, argv: string[], options: OptionSpecs, positionals = false) {
  try {
    return readCommandLine(command, argv, { ...options, help: { type: "boolean", short: "h" } }, { positionals });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return fail(command, error.message);
  }
}

function pathCommand(argv: string[]): number {
  const parsed = parse("contract path", argv, { family: { type: "string" }, openapi: { type: "string" }, format: { type: "string" } });
  if (typeof parsed === "number") return parsed;
  const values = parsed.values as { family?: string; openapi?: string; format?: string; help?: boolean };
  if (values.help) return void console.log(PATH_USAGE), 0;
  if (values.family !== undefined && !isFamilyId(values.family)) return fail("contract path", `--family must be ${FAMILY_IDS.join(" or ")}, got ${values.family}`);
  const versions = OPENAPI_VERSIONS.map((v) => v.id as string);
  if (values.openapi !== undefined && !versions.includes(values.openapi)) return fail("contract path", `--openapi must be ${versions.join(" or ")}, got ${values.openapi}`);
  if (values.format !== undefined && !DOCUMENT_KINDS.includes(values.format as DocumentKind)) return fail("contract path", `--format must be ${DOCUMENT_KINDS.join(", ")}, got ${values.format}`);
  const documents = bundledDocuments({
    family: values.family as never,
    openapi: values.openapi as OpenApiVersionId | undefined,
    kind: values.format as DocumentKind | undefined,
  });
  for (const document of documents) console.log(document.path);
  return 0;
}

/** The OpenAPI version a document declares (3.0 or 3.1), or a reason it has none. */
function declaredVersion(file: string): OpenApiVersionId | string {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(file, "utf8"));
  } catch (error) {
    return `not YAML or JSON: ${firstLine((error as Error).message)}`;
  }
  const openapi = (parsed as { openapi?: unknown } | null)?.openapi;
  if (typeof openapi !== "string") return "no `openapi` member: not an OpenAPI 3 document";
  if (openapi.startsWith("3.0.")) return "3.0";
  if (openapi.startsWith("3.1.")) return "3.1";
  return `OpenAPI ${openapi} is not supported (3.0.x or 3.1.x)`;
}

async function validateCommand(argv: string[], cwd: string): Promise<number> {
  const parsed = parse("contract validate", argv, {}, true);
  if (typeof parsed === "number") return parsed;
  if ((parsed.values as { help?: boolean }).help) return void console.log(VALIDATE_USAGE), 0;
  const files = parsed.positionals.length > 0 ? parsed.positionals.map((f) => resolve(cwd, f)) : bundledDocuments({ kind: "json" }).map((d) => d.path);
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length > 0) return fail("contract validate", `no such file: ${missing.join(", ")}`);
  const folders = files.filter((f) => statSync(f).isDirectory());
  if (folders.length > 0) return fail("contract validate", `${folders.join(", ")} ${folders.length === 1 ? "is a folder" : "are folders"}; give the OpenAPI documents in it (YAML or JSON files)`);
  let invalid = 0;
  for (const file of files) {
    const version = declaredVersion(file);
    const problems = version === "3.0" || version === "3.1" ? [...(await validateSpecRules(file)), ...(await validateAgainstOpenApiSchema(file, version)).problems] : [version];
    // Spec-rule and schema findings can name the same fault twice.
    const unique = [...new Set(problems.map((p) => p.split("\n")[0]!))];
    if (unique.length === 0) console.log(`valid    ${file} (OpenAPI ${version})`);
    else {
      invalid++;
      for (const problem of unique) console.log(`invalid  ${file}: ${problem}`);
    }
  }
  return invalid > 0 ? 1 : 0;
}

/** Runs one contract subcommand and resolves with its exit code. */
export async function contractCommand(argv: string[], cwd: string = process.env.INIT_CWD ?? process.cwd()): Promise<number> {
  const [subcommand, ...rest] = argv;
  switch (subcommand) {
    case "path":
      return pathCommand(rest);
    case "validate":
      return validateCommand(rest, cwd);
    case "diff":
      return diffMain(rest);
    case "-h":
    case "--help":
      console.log(USAGE);
      return 0;
    case undefined:
      return fail("contract", "a subcommand is required: path, validate or diff (payment-collection contract --help says what each does)");
    default:
      return fail("contract", `unknown subcommand ${JSON.stringify(subcommand)}${didYouMean(subcommand, SUBCOMMANDS) || "; the subcommands are path, validate and diff"}`);
  }
}
