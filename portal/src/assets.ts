/**
 * Static assets of the portal: the portal's own CSS/JS (portal/src/assets/), Redoc's
 * standalone bundle from node_modules, and the generated OpenAPI documents offered for
 * download. Everything is copied into the site: no CDN, no remote font, no remote image.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const OWN_ASSETS = join(dirname(fileURLToPath(import.meta.url)), "assets");

/**
 * Redoc's sidebar footer shows the Redocly logo from cdn.redoc.ly, the bundle's only remote
 * resource. The portal must not load anything remote, so the logo becomes an empty inline
 * image; the "API docs by Redocly" credit link stays.
 */
const REDOC_REMOTE_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%221%22 height=%221%22/%3E";

export function redocBundlePath(root: string): string {
  const require = createRequire(join(root, "package.json"));
  return join(dirname(require.resolve("redoc/package.json")), "bundles", "redoc.standalone.js");
}

export function redocVersion(root: string): string {
  const require = createRequire(join(root, "package.json"));
  return (require("redoc/package.json") as { version: string }).version;
}

export function copyAssets(root: string, outDir: string): void {
  const assets = join(outDir, "assets");
  mkdirSync(assets, { recursive: true });
  for (const name of readdirSync(OWN_ASSETS)) copyFileSync(join(OWN_ASSETS, name), join(assets, name));

  const bundle = redocBundlePath(root);
  const source = readFileSync(bundle, "utf8");
  // Replace every occurrence; a later Redoc without the logo simply has nothing to replace.
  writeFileSync(join(assets, "redoc.standalone.js"), source.split(REDOC_REMOTE_LOGO).join(EMPTY_IMAGE));
  const license = `${bundle}.LICENSE.txt`;
  if (existsSync(license)) copyFileSync(license, join(assets, "redoc.standalone.js.LICENSE.txt"));
}

/** Copies generated/openapi/** (JSON and YAML) into the site; returns the portal paths written. */
export function copyGeneratedDocuments(root: string, outDir: string): Set<string> {
  const written = new Set<string>();
  const generated = join(root, "generated", "openapi");
  if (!existsSync(generated)) return written;
  for (const entry of readdirSync(generated, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const version = entry.name;
    const folder = join(generated, version);
    for (const name of readdirSync(folder)) {
      if (!/\.(json|yaml)$/.test(name)) continue;
      const portalPath = `openapi/${version}/${name}`;
      mkdirSync(join(outDir, "openapi", version), { recursive: true });
      copyFileSync(join(folder, name), join(outDir, portalPath));
      written.add(portalPath);
    }
  }
  return written;
}
