/**
 * `payment-collection mock` (and `npm run mock`): serves both families with Prism from the
 * generated OpenAPI (3.0 documents), one port per family, and prints where.
 *
 *   payment-collection mock                                      # free ports
 *   payment-collection mock --port-family-a 4010 --port-family-b 4011
 *   payment-collection mock --host 0.0.0.0 --dynamic             # every interface, generated bodies
 *
 * Ports may also come from MOCK_PORT_FAMILY_A / MOCK_PORT_FAMILY_B. Stops on Ctrl-C.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { FAMILY_IDS, loadFamilyContract } from "@payment-collection/contract/model/index.ts";
import { prismEntry, prismMissing } from "./prism.ts";
import { startMock } from "./start-mock.ts";

export const USAGE = `usage: payment-collection mock [options]

Serves both families with Prism from the bundled OpenAPI documents, one port per family, and
prints their URLs. Pick a documented response with the request header "Prefer: code=404".
Ctrl-C stops it.

  --port-family-a N   port of family A (MOCK_PORT_FAMILY_A; default: a free port)
  --port-family-b N   port of family B (MOCK_PORT_FAMILY_B; default: a free port)
  --host HOST         interface to bind (default 127.0.0.1)
  --dynamic           bodies generated from the schemas instead of the documented examples
  -h, --help          this help

Exit codes: 0 stopped by SIGINT/SIGTERM; 2 bad option, or Prism not installed (an optional
peer dependency: npm install --save-dev @stoplight/prism-cli); 1 Prism could not start.`;

class BadOption extends Error {}

function port(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new BadOption(`${name} must be a port number (0 to 65535), got ${value}`);
  return n;
}

/** Serves until SIGINT or SIGTERM; resolves with the exit code (at once for --help and bad input). */
export async function mockCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let ports;
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        "port-family-a": { type: "string" },
        "port-family-b": { type: "string" },
        host: { type: "string" },
        dynamic: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    ports = {
      "family-a": port(values["port-family-a"] ?? env.MOCK_PORT_FAMILY_A, "--port-family-a"),
      "family-b": port(values["port-family-b"] ?? env.MOCK_PORT_FAMILY_B, "--port-family-b"),
    };
  } catch (error) {
    console.error(`mock: ${(error as Error).message.split("\n")[0]}\n\n${USAGE}`);
    return 2;
  }
  if (!prismEntry()) {
    console.error(`mock: ${prismMissing()}`);
    return 2;
  }
  let mock;
  try {
    mock = await startMock({ host: values.host, dynamic: values.dynamic, ports });
  } catch (error) {
    console.error(`mock: Prism did not start: ${(error as Error).message.split("\n")[0]}`);
    return 1;
  }
  for (const family of FAMILY_IDS) console.log(`${loadFamilyContract(family).title}: ${mock.urls[family]}`);
  console.log('Pick a documented response with the header "Prefer: code=404" (see the conformance README). Ctrl-C stops.');
  const running = mock;
  return new Promise<number>((done) => {
    const stop = () => void running.close().then(() => done(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(await mockCommand(process.argv.slice(2)));
}
