/**
 * The files of a conformance bundle, and the kind of statement it signs. Every file but the
 * envelope is a subject of the signed statement; every file but the envelope and the manifest
 * has its digest in the manifest.
 */
export const BUNDLE_FILES = {
  exchanges: "exchanges.har",
  report: "report.json",
  junit: "junit.xml",
  html: "report.html",
  manifest: "manifest.json",
  publicKey: "public-key.pem",
  envelope: "statement.dsse.json",
} as const;

/** The in-toto Statement type (v1). */
export const STATEMENT_TYPE = "https://in-toto.io/Statement/v1";

/** The project's predicate: the result of a conformance run, and what it was judged against. */
export const PREDICATE_TYPE = "https://github.com/payment-collection/payment-collection/conformance-result/v1";

/** Version of the manifest's layout. */
export const MANIFEST_VERSION = 1;

/** Where a key made for the run is written: beside the bundle's folder, never in it. */
export function generatedKeyPath(dir: string): string {
  return `${dir.replace(/[\\/]+$/, "")}.signing-key.pem`;
}
