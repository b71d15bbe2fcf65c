/**
 * Where the compared documents come from: a git ref (`git show REF:generated/openapi/3.1/...`),
 * a folder (a package root, a generated/ tree, or a folder of family-*.json), or one file. Bad
 * input is a `BadInput` with a one-line message; callers print it and exit 2.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import type { Json } from "../model/json.ts";
import { GENERATED_DIR } from "../model/layout.ts";
import type { FamilyDocuments } from "./index.ts";

export class BadInput extends Error {}

/** The published families, in the generated/openapi/3.1 folder. */
export const FAMILY_NAMES = ["family-a", "family-b"] as const;
export const OPENAPI_31 = "openapi/3.1";
/** contract/package.json of this checkout. */
export const CONTRACT_PACKAGE_JSON = fileURLToPath(new URL("../../package.json", import.meta.url));

export interface LoadedSide {
  /** How the side is named in reports (`HEAD`, `v0.2.0`, a path, `working tree`). */
  label: string;
  documents: FamilyDocuments;
  /** contract/package.json version on that side, when known. */
  packageVersion?: string;
  /** The family of a side given as one document: the comparison is of that family only. */
  oneDocumentOf?: string;
}

function parseDocument(text: string, where: string): Json {
  try {
    const parsed = /\.ya?ml$/i.test(where) ? parseYaml(text) : JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
    if (typeof parsed.openapi !== "string") throw new Error("no `openapi` field");
    return parsed as Json;
  } catch (error) {
    throw new BadInput(`${where} is not an OpenAPI document (${(error as Error).message.split("\n")[0]})`);
  }
}

function git(cwd: string, args: string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 256 * 1024 * 1024 });
  } catch {
    return undefined;
  }
}

/** The git work tree holding the contract, or undefined outside git. */
export function gitTopLevel(from: string = GENERATED_DIR): string | undefined {
  return git(existsSync(from) ? from : resolve(from, ".."), ["rev-parse", "--show-toplevel"])?.trim() || undefined;
}

export function isGitRef(ref: string, cwd: string): boolean {
  return !ref.startsWith("-") && git(cwd, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]) !== undefined;
}

/** A file of a commit, or undefined when the commit does not have it. */
export function gitShow(cwd: string, ref: string, repoPath: string): string | undefined {
  return git(cwd, ["show", `${ref}:${repoPath}`]);
}

function versionIn(text: string | undefined): string | undefined {
  try {
    const version = text ? (JSON.parse(text) as { version?: unknown }).version : undefined;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The working tree's generated documents (the head of every comparison). */
export function loadWorkingTree(generatedDir: string = GENERATED_DIR, packageJson: string = CONTRACT_PACKAGE_JSON): LoadedSide {
  const side = loadFolder(generatedDir, "working tree");
  return { ...side, packageVersion: versionIn(existsSync(packageJson) ? readFileSync(packageJson, "utf8") : undefined) };
}

/** The families of a commit; a family whose document the commit lacks is undefined. */
export function loadGitRef(ref: string, top: string, generatedDir: string = GENERATED_DIR, packageJson: string = CONTRACT_PACKAGE_JSON): LoadedSide {
  if (!isGitRef(ref, top)) throw new BadInput(`${ref} is not a file, a folder or a git ref of ${top}`);
  const folder = relative(top, join(generatedDir, OPENAPI_31)).split("\\").join("/");
  const documents = new Map<string, Json | undefined>();
  for (const family of FAMILY_NAMES) {
    const text = gitShow(top, ref, `${folder}/${family}.json`);
    documents.set(family, text === undefined ? undefined : parseDocument(text, `${ref}:${folder}/${family}.json`));
  }
  if ([...documents.values()].every((d) => d === undefined)) throw new BadInput(`${ref} has no ${folder}/family-a.json or family-b.json`);
  const packagePath = relative(top, packageJson).split("\\").join("/");
  return { label: ref, documents, packageVersion: versionIn(gitShow(top, ref, packagePath)) };
}

/** A package root, a generated/ tree, a generated/openapi/3.1 folder or any folder holding family-a.json / family-b.json. */
export function loadFolder(dir: string, label: string = dir): LoadedSide {
  const candidates = [join(dir, "generated", OPENAPI_31), join(dir, OPENAPI_31), dir];
  const folder = candidates.find((candidate) => FAMILY_NAMES.some((family) => existsSync(join(candidate, `${family}.json`))));
  if (!folder) throw new BadInput(`${dir} holds no family-a.json or family-b.json (looked in generated/openapi/3.1, openapi/3.1 and the folder itself)`);
  const documents = new Map<string, Json | undefined>();
  for (const family of FAMILY_NAMES) {
    const file = join(folder, `${family}.json`);
    documents.set(family, existsSync(file) ? parseDocument(readFileSync(file, "utf8"), file) : undefined);
  }
  return { label, documents };
}

/** One document; its family comes from the file name (family-a*.json) or info.title ("family A"). */
export function loadFile(file: string): LoadedSide {
  const document = parseDocument(readFileSync(file, "utf8"), file);
  const byName = FAMILY_NAMES.find((family) => basename(file).startsWith(family));
  const title = (document.info as { title?: unknown } | undefined)?.title;
  const byTitle = typeof title === "string" ? /family\s+([ab])\b/i.exec(title)?.[1]?.toLowerCase() : undefined;
  const family = byName ?? (byTitle ? `family-${byTitle}` : undefined);
  if (!family) throw new BadInput(`cannot tell which family ${file} describes (name it family-a*.json or family-b*.json)`);
  return { label: file, documents: new Map([[family, document]]), oneDocumentOf: family };
}

/** `--base`: an existing file or folder first, else a git ref. */
export function loadBase(spec: string, cwd: string = process.cwd()): LoadedSide {
  const path = resolve(cwd, spec);
  if (existsSync(path)) return statSync(path).isDirectory() ? loadFolder(path, spec) : loadFile(path);
  const top = gitTopLevel();
  if (!top) throw new BadInput(`${spec} is not a file or folder, and the contract is not in a git work tree`);
  return loadGitRef(spec, top);
}

/** The head restricted to the families the base has a say on (a lone base file compares one family). */
export function restrictTo(head: LoadedSide, families: Iterable<string>): LoadedSide {
  const wanted = new Set(families);
  return { ...head, documents: new Map([...head.documents].filter(([family]) => wanted.has(family))) };
}
