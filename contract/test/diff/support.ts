/** Helpers of the contract diff tests: the real generated documents, cloned per case. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const OPENAPI_31_DIR = fileURLToPath(new URL("../../../generated/openapi/3.1/", import.meta.url));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Doc = any;

const cache = new Map<string, Doc>();
/** A fresh deep copy of a generated 3.1 document (referenced form: `$ref`s kept). */
export function generated(family: "family-a" | "family-b"): Doc {
  if (!cache.has(family)) cache.set(family, JSON.parse(readFileSync(`${OPENAPI_31_DIR}${family}.json`, "utf8")));
  return structuredClone(cache.get(family));
}
