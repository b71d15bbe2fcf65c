/**
 * How the code samples call this package's client: the module specifier a consumer imports
 * (from package.json `name` and `exports`), and the factory of each family (checked against
 * what src/client/index.ts actually exports, so a renamed factory drops the client sample
 * instead of publishing a call that does not compile).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ClientBinding } from "./code-samples.ts";
import { serverUrl } from "./code-samples.ts";
import type { JsonObject } from "./openapi-walk.ts";

/** Environment variable holding the API key in every sample. */
export const API_KEY_VARIABLE = "PAYMENTS_API_KEY";

/** Which factory serves which family, and how the sample configures it. */
const FACTORIES: Record<string, { factory: string; variable: string; options: (document: JsonObject) => string }> = {
  "family-a": {
    factory: "createChargesClient",
    variable: "charges",
    options: (document) =>
      `{\n  baseUrl: ${JSON.stringify(serverUrl(document))}, // placeholder host (decision D37): your {base_url}\n  apiKey: process.env.${API_KEY_VARIABLE}!,\n}`,
  },
  "family-b": {
    factory: "createSdkClient",
    variable: "sdk",
    options: () => `{\n  environment: "sandbox", // or "production", or a base URL\n  apiKey: process.env.${API_KEY_VARIABLE}!,\n}`,
  },
};

const CLIENT_ENTRY = "src/client/index.ts";

/** The import specifier of the client: the package export that points at the client build. */
export function clientImportSpecifier(root: string): string {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name?: string; exports?: unknown };
  const name = manifest.name ?? "payment-collection-client";
  const exportsField = manifest.exports;
  if (exportsField && typeof exportsField === "object" && !Array.isArray(exportsField)) {
    for (const [key, target] of Object.entries(exportsField as Record<string, unknown>)) {
      if (!key.startsWith(".")) continue;
      if (/client/i.test(key) || /client/i.test(JSON.stringify(target))) return key === "." ? name : `${name}/${key.slice(2)}`;
    }
  }
  return `${name}/client`;
}

/** The client binding of a document, or undefined when the client does not cover it. */
export function clientBindingFor(root: string, documentId: string, document: JsonObject): ClientBinding | undefined {
  const factory = FACTORIES[documentId];
  const entry = join(root, CLIENT_ENTRY);
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
