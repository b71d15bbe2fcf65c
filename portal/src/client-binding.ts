/**
 * How the code samples call the client package (the client/ workspace,
 * `@payment-collection/client`): the module specifier a consumer imports (from
 * client/package.json `name` and `exports`), and the factory of each family (checked against
 * what client/src/index.ts actually exports, so a renamed factory drops the client sample
 * instead of publishing a call that does not compile).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ClientBinding } from "./code-samples.ts";
import { serverUrl } from "./code-samples.ts";
import type { Json as JsonObject } from "@payment-collection/contract/model/index.ts";

/** Environment variable holding the API key in every sample. */
export const API_KEY_VARIABLE = "PAYMENTS_API_KEY";

/** Which factory serves which family, and how the sample configures it. */
const FACTORIES: Record<string, { factory: string; variable: string; options: (document: JsonObject) => string }> = {
  "family-a": {
    factory: "createFamilyAClient",
    variable: "familyA",
    options: (document) =>
      `{\n  baseUrl: ${JSON.stringify(serverUrl(document))}, // placeholder host (decision D37): your {base_url}\n  apiKey: process.env.${API_KEY_VARIABLE}!,\n}`,
  },
  "family-b": {
    factory: "createFamilyBClient",
    variable: "familyB",
    options: () => `{\n  environment: "sandbox", // or "production", or a base URL\n  apiKey: process.env.${API_KEY_VARIABLE}!,\n}`,
  },
};

/** The client workspace, relative to the repository root. */
const CLIENT_PACKAGE = "client";
/** Its source entry point (what the package's "." export is compiled from). */
const CLIENT_ENTRY = join(CLIENT_PACKAGE, "src", "index.ts");

/** The client's source entry point: what a sample's import resolves to when compiled in the repository. */
export function clientEntry(root: string): string {
  return join(root, CLIENT_ENTRY);
}

/** The import specifier of the client: its package name, or the package export that points at the client build. */
export function clientImportSpecifier(root: string): string {
  const manifest = JSON.parse(readFileSync(join(root, CLIENT_PACKAGE, "package.json"), "utf8")) as { name?: string; exports?: unknown };
  const name = manifest.name ?? "@payment-collection/client";
  const exportsField = manifest.exports;
  if (exportsField && typeof exportsField === "object" && !Array.isArray(exportsField)) {
    const entries = Object.entries(exportsField as Record<string, unknown>);
    if (entries.some(([key]) => key === ".")) return name;
    for (const [key, target] of entries) {
      if (!key.startsWith(".")) continue;
      if (/client/i.test(key) || /client/i.test(JSON.stringify(target))) return `${name}/${key.slice(2)}`;
    }
  }
  return name;
}

/** The client binding of a document, or undefined when the client does not cover it. */
export function clientBindingFor(root: string, documentId: string, document: JsonObject): ClientBinding | undefined {
  const factory = FACTORIES[documentId];
  const entry = clientEntry(root);
  if (!factory || !existsSync(entry)) return undefined;
  const exported = new RegExp(`\\bexport\\b[^;]*\\b${factory.factory}\\b`).test(readFileSync(entry, "utf8"));
  if (!exported) return undefined;
  return {
    importFrom: clientImportSpecifier(root),
    factory: factory.factory,
    variable: factory.variable,
    options: factory.options(document),
  };
}
