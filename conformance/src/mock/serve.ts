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
import { portInUse, portNumber, readCommandLine, refuse, UsageError } from "@payment-collection/contract/command/command-line.ts";
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

Exit codes: 0 stopped by SIGINT/SIGTERM; 2 bad option, a port in use, or Prism not installed
(an optional peer dependency: npm install --save-dev @stoplight/prism-cli); 1 Prism could not
start.`;

function port(value: string | undefined, name: string): number | undefined {
  return value === undefined || value === "" ? undefined : portNumber(value, name);
}

/** Why Prism did not start: a port in use is bad input (exit 2), named with the option that picks another. */
function prismFailure(error: unknown, host: string, ports: Partial<Record<string, number>>): { message: string; code: number } {
  const output = (error as Error).message ?? String(error);
  const taken = FAMILY_IDS.find((family) => ports[family] !== undefined && ports[family] !== 0 && output.includes("EADDRINUSE") && output.includes(String(ports[family])));
  if (taken) return { message: portInUse(host, ports[taken]!, `--port-${taken}`), code: 2 };
  return { message: `Prism did not start: ${output.split("\n")[0]}`, code: 1 };
}

/** Serves until SIGINT or SIGTERM; resolves with the exit code (at once for --help and bad input). */
export async function mockCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let ports;
  let values;
  try {
    ({ values } = readCommandLine("mock", argv, {
      "port-family-a": { type: "string" },
      "port-family-b": { type: "string" },
      host: { type: "string" },
      dynamic: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
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
    if (!(error instanceof UsageError)) throw error;
    return refuse("mock", error.message);
  }
  if (!prismEntry()) return refuse("mock", prismMissing());
  let mock;
  try {
    mock = await startMock({ host: values.host, dynamic: values.dynamic, ports });
  } catch (error) {
    const failure = prismFailure(error, values.host ?? "127.0.0.1", ports);
    return refuse("mock", failure.message, failure.code);
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
