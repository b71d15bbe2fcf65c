/**
 * Bundles the console's contract check (contract-check.ts, with the contract model's ajv,
 * domain formats and domain checks, and the conformance suites' validation) into one script
 * for the browser, with esbuild.
 *
 * The modules it reaches also hold code for Node (reading the generated documents and the
 * catalogue, decoding QR images with pngjs) that the check never calls in the browser. Those
 * Node modules become stubs: reaching one at run time throws, saying so; only what the model
 * calls while loading to find its package folder answers: path and URL helpers "/",
 * `existsSync` false.
 */
import { build, type Plugin } from "esbuild";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ENTRY = join(dirname(fileURLToPath(import.meta.url)), "browser-entry.ts");

/** Node's own modules, and packages that need them, as far as the check's imports reach. */
const NODE_ONLY = /^(node:.*|fs|path|url|module|zlib|stream|util|assert|buffer|os|crypto|pngjs|yaml)$/;

const nodeStubs: Plugin = {
  name: "node-stubs",
  setup(builder) {
    builder.onResolve({ filter: NODE_ONLY }, (args) => ({ path: args.path, namespace: "node-stub" }));
    builder.onLoad({ filter: /.*/, namespace: "node-stub" }, async (args) => {
      const answer = /^(node:)?(path|url)$/.test(args.path) ? `"/"` : `(() => { throw new Error(${JSON.stringify(`${args.path} is not available in the browser`)}); })()`;
      // The real module's export names, so that named imports bind to the stub.
      const names = Object.keys(await import(args.path)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== "default");
      const contents = [`const stub = () => ${answer};`, ...names.map((name) => (name === "existsSync" ? `export const ${name} = () => false;` : `export const ${name} = stub;`)), "export default stub;"].join("\n");
      return { contents, loader: "js" };
    });
  },
};

/** The bundle's source text (an IIFE defining `window.PortalContractCheck`). */
export async function bundleContractCheck(): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    minify: true,
    legalComments: "none",
    plugins: [nodeStubs],
    // The model resolves its package folder from its own URL while loading.
    define: { "import.meta.url": JSON.stringify("file:///payment-collection/contract/src/model/layout.ts") },
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}
