/**
 * Which contract a run was judged against: the SHA-256 of each generated document (OpenAPI
 * and types, under generated/), of the statement catalogue and of the decision record, with
 * the contract package's version and each family's document version. A contract is a folder
 * holding those files: this repository, or an installed `@payment-collection/contract`.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { CONTRACT_ROOT, FAMILY_IDS, openapiPath, type FamilyId } from "@payment-collection/contract/model/index.ts";

export interface ContractDigest {
  /** The contract package's version. */
  version: string;
  /** Each family's document version (`info.version`). */
  documents: Partial<Record<FamilyId, string>>;
  /** SHA-256 (hex) of each file, by its path in the contract folder. */
  files: Record<string, string>;
  /** SHA-256 of the list of files and their digests: one figure for the whole contract. */
  sha256: string;
}

/** The contract's files beside generated/ that a verdict depends on. */
export const CONTRACT_RECORDS = ["spec/statements.yaml", "docs/decisions.md"];

export const sha256 = (data: string | Uint8Array): string => createHash("sha256").update(data).digest("hex");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** The contract package's version: its package.json, beside generated/ when installed, under contract/ in this repository. */
function contractVersion(root: string): string {
  for (const file of [join(root, "package.json"), join(root, "contract", "package.json")]) {
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
    if (manifest.name === "@payment-collection/contract" && manifest.version) return manifest.version;
  }
  return "unknown";
}

/** Whether a folder holds a contract (generated documents, catalogue, decision record). */
export function isContractFolder(root: string): boolean {
  return existsSync(join(root, "generated", "openapi")) && CONTRACT_RECORDS.every((file) => existsSync(join(root, file)));
}

/** The digest of the contract in `root` (default: the one this package reads). */
export function contractDigest(root: string = CONTRACT_ROOT): ContractDigest {
  // The documents the build writes (OpenAPI, types), not what a package may add beside them (declarations).
  const generated = filesUnder(join(root, "generated"))
    .map((file) => relative(root, file).split(sep).join("/"))
    .filter((path) => /\.(json|yaml)$/.test(path) || (path.endsWith(".ts") && !path.endsWith(".d.ts")));
  const files: Record<string, string> = {};
  for (const path of [...generated.sort(), ...CONTRACT_RECORDS]) files[path] = sha256(readFileSync(join(root, path)));
  const documents: Partial<Record<FamilyId, string>> = {};
  for (const family of FAMILY_IDS) {
    const file = join(root, "generated", openapiPath("3.1", family, "json"));
    if (existsSync(file)) documents[family] = String((JSON.parse(readFileSync(file, "utf8")) as { info?: { version?: string } }).info?.version ?? "unknown");
  }
  const sha = sha256(Object.entries(files).map(([path, digest]) => `${digest}  ${path}\n`).join(""));
  return { version: contractVersion(root), documents, files, sha256: sha };
}

/** The files whose digests differ between two contracts (present in one only included). */
export function differingFiles(a: ContractDigest, b: ContractDigest): string[] {
  const paths = new Set([...Object.keys(a.files), ...Object.keys(b.files)]);
  return [...paths].filter((path) => a.files[path] !== b.files[path]).sort();
}

/** How a contract is named in a line: `0.2.0 (documents family-a 1.0.0, family-b 1.0.0)`. */
export function contractName(digest: Pick<ContractDigest, "version" | "documents">): string {
  const documents = Object.entries(digest.documents).map(([family, version]) => `${family} ${version}`);
  return `${digest.version}${documents.length > 0 ? ` (documents ${documents.join(", ")})` : ""}`;
}

/**
 * Where else this installation may hold a contract: the `@payment-collection/contract` the
 * project in `cwd` installed (it may be another version than the one this CLI carries).
 */
export function installedContractFolders(cwd: string): string[] {
  try {
    const manifest = createRequire(join(resolve(cwd), "noop.js")).resolve("@payment-collection/contract/package.json");
    const folder = dirname(manifest);
    return statSync(folder).isDirectory() ? [folder] : [];
  } catch {
    return [];
  }
}
