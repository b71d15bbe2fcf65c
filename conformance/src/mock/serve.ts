/**
 * `npm run mock`: serves both families with Prism from the generated OpenAPI (3.0 documents),
 * one port per family, and prints where.
 *
 *   npm run mock                                   # free ports
 *   npm run mock -- --port-family-a 4010 --port-family-b 4011    # fixed ports
 *   npm run mock -- --host 0.0.0.0 --dynamic       # listen on every interface, generated bodies
 *
 * Ports may also come from MOCK_PORT_FAMILY_A / MOCK_PORT_FAMILY_B. Stops on Ctrl-C.
 */
import { parseArgs } from "node:util";
import { FAMILY_IDS, loadFamilyContract } from "@payment-collection/contract/model/index.ts";
import { startMock } from "./start-mock.ts";

function port(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number, got ${value}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "port-family-a": { type: "string" },
      "port-family-b": { type: "string" },
      host: { type: "string" },
      dynamic: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log("usage: npm run mock -- [--port-family-a N] [--port-family-b N] [--host H] [--dynamic]");
    return;
  }
  const mock = await startMock({
    host: values.host,
    dynamic: values.dynamic,
    ports: {
      "family-a": port(values["port-family-a"] ?? process.env.MOCK_PORT_FAMILY_A, "--port-family-a"),
      "family-b": port(values["port-family-b"] ?? process.env.MOCK_PORT_FAMILY_B, "--port-family-b"),
    },
  });
  for (const family of FAMILY_IDS) {
    console.log(`${loadFamilyContract(family).title}: ${mock.urls[family]}`);
  }
  console.log('Pick a documented response with the header "Prefer: code=404" (see conformance/README.md). Ctrl-C stops.');
  const stop = async () => {
    await mock.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
