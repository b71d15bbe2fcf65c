/**
 * Dredd itself, as the suites use it: whether it is installed (an optional peer dependency:
 * a team that runs the suites without it installs no Dredd), the parts of its API the suites
 * touch, and one in-process run of a document with the suite's hook file.
 */
import { createHash } from "node:crypto";
import { EventEmitter } from "node:events";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const HOOK_FILE = fileURLToPath(new URL("./hooks.cjs", import.meta.url));
const DREDD_PACKAGE = "dredd";

/** The parts of Dredd's hooks API the suites use. */
export interface DreddHooks {
  beforeAll(fn: (transactions: DreddTransaction[], done: () => void) => void): void;
  beforeEach(fn: (t: DreddTransaction, done: () => void) => void): void;
  beforeEachValidation(fn: (t: DreddTransaction, done: () => void) => void): void;
  afterEach(fn: (t: DreddTransaction, done: () => void) => void): void;
}

/** The parts of a Dredd transaction the suites read and write. */
export interface DreddTransaction {
  name: string;
  origin: { resourceName: string };
  request: { method: string; uri: string; headers: Record<string, string>; body: string };
  expected: { statusCode: string; headers: Record<string, string>; body?: string; bodySchema?: unknown };
  real?: { statusCode: number; headers: Record<string, string>; body: string };
  fullPath: string;
  skip: boolean;
  fail?: boolean | string;
  test?: { valid?: boolean; message?: string };
}

interface ParsedDescription {
  transactions: unknown[];
  annotations: unknown[];
  [key: string]: unknown;
}

interface DreddInstance {
  run(cb: (error: unknown, stats: unknown) => void): void;
  prepareAPIdescriptions(cb: (error: unknown, descriptions?: ParsedDescription[]) => void): void;
}

type DreddClass = new (config: Record<string, unknown>) => DreddInstance;

/** Whether Dredd can be loaded here. */
export function dreddInstalled(): boolean {
  try {
    require.resolve(DREDD_PACKAGE);
    return true;
  } catch {
    return false;
  }
}

/** One line saying how to install the Dredd version this package declares (its optional peer dependency), or how to run without it. */
export function dreddMissing(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { peerDependencies: Record<string, string> };
  return `Dredd is not installed (an optional peer dependency, needed by the Dredd suites only): npm install --save-dev ${DREDD_PACKAGE}@${manifest.peerDependencies[DREDD_PACKAGE]}, or run the other suites with --no-dredd`;
}

/**
 * Runs Dredd on one document through `endpoint`, with the hook file that installs the suite
 * registered as `suiteId`; resolves when every transaction is done.
 */
export async function runDredd(options: { endpoint: string; document: string; suiteId: string }): Promise<void> {
  const Dredd = dreddClass();
  await new Promise<void>((resolve, reject) => {
    const dredd: DreddInstance = new Dredd({
      endpoint: options.endpoint,
      path: [options.document],
      hookfiles: [HOOK_FILE],
      custom: { conformanceSuite: options.suiteId },
      loglevel: "error",
      color: false,
      reporter: [],
      emitter: new EventEmitter(),
    });
    reuseParsedDocument(dredd, options.document);
    dredd.run((error) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()));
  });
}

/** Dredd's class, loaded once it is needed, its console reporter silenced (the runner prints its own report). */
function dreddClass(): DreddClass {
  if (!dreddInstalled()) throw new Error(dreddMissing());
  const dreddModule = loadDredd() as DreddClass | { default: DreddClass };
  const outputLogger = require("dredd/build/reporters/reporterOutputLogger").default as { transports: { console: { silent: boolean } } };
  outputLogger.transports.console.silent = true;
  return "default" in dreddModule ? dreddModule.default : dreddModule;
}

/**
 * Loads Dredd. Its logging library touches a missing export while loading, which Node reports
 * as a warning on every run ("Accessing non-existent property 'padLevels'"); that one warning is
 * not shown.
 */
function loadDredd(): unknown {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes("padLevels")) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return require(DREDD_PACKAGE);
  } finally {
    process.emitWarning = emitWarning;
  }
}

/**
 * Parsing a document takes Dredd a few seconds, and a run parses each document twice (main
 * and rate-limit stage); tests run many suites. The parsed transactions are kept per document
 * (and modification time) and each run gets its own copy, since Dredd changes them in place.
 *
 * The copy keeps only what Dredd reads after parsing (location, media type, annotations,
 * transactions): Dredd stores the descriptions in its configuration and deep-clones that for
 * the hooks, and the parse tree and document text made that clone most of a short run's time.
 *
 * A parse is also kept on disk (parsedOnDisk), for the next process that runs the suites.
 */
const parsedDocuments = new Map<string, ParsedDescription[]>();

function reuseParsedDocument(dredd: DreddInstance, document: string): void {
  const key = `${document}@${statSync(document).mtimeMs}`;
  const parse = dredd.prepareAPIdescriptions.bind(dredd);
  const copy = (list: ParsedDescription[]): ParsedDescription[] =>
    list.map((d) => ({ location: d.location, mediaType: d.mediaType, annotations: [], transactions: JSON.parse(JSON.stringify(d.transactions)) as unknown[] }));
  // The parser's warnings and errors are reported as Dredd does, on the first use in a process only.
  const firstUse = (descriptions: ParsedDescription[]) => {
    parsedDocuments.set(key, copy(descriptions));
    return copy(descriptions).map((d, i) => ({ ...d, annotations: descriptions[i]!.annotations }));
  };
  dredd.prepareAPIdescriptions = (cb) => {
    const cached = parsedDocuments.get(key);
    if (cached) {
      cb(null, copy(cached));
      return;
    }
    const onDisk = parsedOnDisk(document);
    const stored = onDisk?.read();
    if (stored) {
      cb(null, firstUse(stored));
      return;
    }
    parse((error, descriptions) => {
      if (error || !descriptions) return cb(error, descriptions);
      onDisk?.write(descriptions);
      cb(null, firstUse(descriptions));
    });
  };
}

/**
 * Dredd's parse of a document kept on disk, beside the Dredd installation
 * (node_modules/.cache/payment-collection/dredd/), under the document's content and the
 * versions of Dredd and its OpenAPI parser: every process that runs the suites (each run of
 * `conformance`, each test worker) parsed the same documents again, a few seconds of CPU each.
 * The document's path inside the parse is written as the path it has now. Undefined, and
 * nothing kept, where the versions cannot be read; a cache that cannot be read or written is
 * left alone.
 */
function parsedOnDisk(document: string): { read(): ParsedDescription[] | undefined; write(descriptions: ParsedDescription[]): void } | undefined {
  let folder: string;
  let versions: string;
  try {
    const dreddManifest = require.resolve(`${DREDD_PACKAGE}/package.json`);
    const parserManifest = createRequire(dreddManifest).resolve("@apielements/openapi3-parser/package.json");
    versions = [dreddManifest, parserManifest].map((manifest) => (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version).join(" ");
    folder = join(dirname(dirname(dreddManifest)), ".cache", "payment-collection", "dredd");
  } catch {
    return undefined;
  }
  const location = resolve(document);
  const file = join(folder, `${createHash("sha256").update(versions).update("\0").update(readFileSync(document)).digest("hex")}.json`);
  // The location as it appears inside JSON text.
  const inJson = (path: string) => JSON.stringify(path).slice(1, -1);
  return {
    read() {
      try {
        const { location: stored, text } = JSON.parse(readFileSync(file, "utf8")) as { location: string; text: string };
        return JSON.parse(text.split(inJson(stored)).join(inJson(location))) as ParsedDescription[];
      } catch {
        return undefined;
      }
    },
    write(descriptions) {
      if (descriptions.some((d) => d.location !== location)) return;
      const kept = descriptions.map((d) => ({ location: d.location, mediaType: d.mediaType, annotations: d.annotations, transactions: d.transactions }));
      try {
        mkdirSync(folder, { recursive: true });
        const partial = `${file}.${process.pid}.tmp`;
        writeFileSync(partial, JSON.stringify({ location, text: JSON.stringify(kept) }));
        renameSync(partial, file);
      } catch {
        // No cache this time.
      }
    },
  };
}
