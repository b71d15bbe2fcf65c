/**
 * Versions of the installed packages, for `--version`: the CLI's own, then the products it
 * runs, so that a CI log says exactly which contract a server was checked against.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The version in a package's package.json, or undefined when the package is not installed. */
function installedVersion(name: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string }).version;
  } catch {
    return undefined;
  }
}

export const CLI_VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;

/** One line: `payment-collection 0.2.0 (contract 0.2.0, conformance 0.2.0, sandbox 0.2.0)`. */
export function versionLine(): string {
  const products = ["contract", "conformance", "sandbox"].map((product) => `${product} ${installedVersion(`@payment-collection/${product}`) ?? "not installed"}`);
  return `payment-collection ${CLI_VERSION} (${products.join(", ")})`;
}
