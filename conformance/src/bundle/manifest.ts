/**
 * manifest.json of a bundle, and the predicate of its signed statement: what ran (the tool and
 * the engines, the profile, the families, the options that change verdicts, the seed), against
 * which contract and which server, when, with what verdicts, and the digest of every other file.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import type { Profile } from "../core/profiles/index.ts";
import type { ContractDigest } from "./contract-digest.ts";
import { MANIFEST_VERSION } from "./layout.ts";
import type { FamilyFingerprint } from "./target-fingerprint.ts";

const require = createRequire(import.meta.url);

/** A package's installed version, or `not installed`. */
function installedVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string }).version;
  } catch {
    return "not installed";
  }
}

/** The engines whose versions a verdict depends on. */
const ENGINES = ["@payment-collection/contract", "dredd", "fast-check", "ajv", "standardwebhooks"];

export function toolVersions(): { name: string; version: string; node: string; engines: Record<string, string> } {
  return {
    name: "payment-collection conformance",
    version: installedVersion("@payment-collection/conformance"),
    node: process.version,
    engines: Object.fromEntries(ENGINES.map((name) => [name, installedVersion(name)])),
  };
}

/** The options of a run that change its verdicts (the profile and the families apart). */
export interface VerdictOptions {
  exhaust: boolean;
  exhaustCap: number;
  failFast: boolean;
  minCoverage?: number;
  /** False with `--no-dredd`: the Dredd suites did not run, their checks are not applicable. */
  dredd: boolean;
}

export type RunVerdict = "pass" | "fail" | "stopped";

export interface BundleRun {
  profile: Profile;
  families: FamilyId[];
  seed?: number;
  options: VerdictOptions;
  startedAt: string;
  endedAt: string;
  verdict: RunVerdict;
  /** Why the run stopped before its end. */
  stopped?: string;
  counts: { pass: number; fail: number; notApplicable: number };
  exchanges: number;
  webhookDeliveries: number;
}

export interface Manifest {
  manifestVersion: number;
  tool: ReturnType<typeof toolVersions>;
  run: BundleRun;
  contract: ContractDigest;
  target: FamilyFingerprint[];
  signer: { fingerprint: string; publicKey: string };
  /** SHA-256 (hex) of every other file of the bundle but the envelope. */
  files: Record<string, string>;
}

/** The predicate of the signed statement: the result, and what it was judged against. */
export interface ConformancePredicate {
  tool: { name: string; version: string };
  run: BundleRun;
  contract: Pick<ContractDigest, "version" | "documents" | "sha256">;
  target: Array<Pick<FamilyFingerprint, "family" | "baseUrl" | "server" | "tls" | "keys">>;
}

/** The manifest's description of a run: what sealing it adds (the signer, the files' digests) apart. */
export function manifestOf(parts: Omit<Manifest, "manifestVersion" | "tool" | "signer" | "files">): Omit<Manifest, "signer" | "files"> {
  return { manifestVersion: MANIFEST_VERSION, tool: toolVersions(), ...parts };
}

export function predicateOf(manifest: Manifest): ConformancePredicate {
  return {
    tool: { name: manifest.tool.name, version: manifest.tool.version },
    run: manifest.run,
    contract: { version: manifest.contract.version, documents: manifest.contract.documents, sha256: manifest.contract.sha256 },
    target: manifest.target.map(({ family, baseUrl, server, tls, keys }) => ({ family, baseUrl, server, ...(tls ? { tls } : {}), keys })),
  };
}
