/**
 * `npm run sandbox`: starts the sandbox and prints its address, keys and data directory.
 *
 *   npm run sandbox -- --port 4010 --data-dir .sandbox-data --plan default
 *
 * Flags (each also read from the environment):
 *   --host HOST           SANDBOX_HOST       interface to bind (default 127.0.0.1)
 *   --port PORT           SANDBOX_PORT       port (default 4010; 0 picks a free port)
 *   --data-dir DIR        SANDBOX_DATA_DIR   SQLite data directory (default ./.sandbox-data)
 *   --store STORE         SANDBOX_STORE      sqlite (default) or postgres://user:pass@host:5432/db (shared by several instances)
 *   --instance NAME       SANDBOX_INSTANCE   this instance's name in the webhook delivery log (default host:pid:random)
 *   --plan NAME           SANDBOX_PLAN       rate-limit plan: default | generous
 *   --durability LEVEL    SANDBOX_DURABILITY process (survives kill -9) | power (fsync per commit)
 *   --allow-private-webhooks  SANDBOX_ALLOW_PRIVATE_WEBHOOKS=1  let webhooks reach local addresses
 *   --access-log          SANDBOX_ACCESS_LOG=1  one stdout line per request: method, path (no query), status, ms, account
 *   --json                                   print one JSON line instead of the text banner
 *
 * Exit codes: 0 stopped by SIGINT/SIGTERM; 2 invalid flag; 3 the database's schema is newer
 * than this sandbox (one line on stderr); 4 the store cannot be opened (e.g. PostgreSQL
 * unreachable at start; one line on stderr).
 */
import { parseArgs } from "node:util";
import { RATE_LIMIT_PLANS, type PlanName } from "./plans.ts";
import { startSandbox } from "./server.ts";
import { SchemaTooNewError } from "./store/sqlite/schema.ts";

const { values } = parseArgs({
  options: {
    host: { type: "string" },
    port: { type: "string" },
    "data-dir": { type: "string" },
    store: { type: "string" },
    instance: { type: "string" },
    plan: { type: "string" },
    durability: { type: "string" },
    "allow-private-webhooks": { type: "boolean" },
    "access-log": { type: "boolean" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});

if (values.help) {
  console.log(
    [
      "usage: npm run sandbox -- [--host HOST] [--port PORT] [--data-dir DIR] [--store sqlite|postgres://user:pass@host/db] [--instance NAME] [--plan default|generous] [--durability process|power] [--allow-private-webhooks] [--access-log] [--json]",
      "  --access-log   print one line per request to stdout: method, path (without query), status, milliseconds, account (or -)",
    ].join("\n"),
  );
  process.exit(0);
}

const env = process.env;
const plan = (values.plan ?? env.SANDBOX_PLAN ?? "default") as PlanName;
if (!(plan in RATE_LIMIT_PLANS)) {
  console.error(`unknown plan "${plan}"; known: ${Object.keys(RATE_LIMIT_PLANS).join(", ")}`);
  process.exit(2);
}
const durability = values.durability ?? env.SANDBOX_DURABILITY ?? "process";
if (durability !== "process" && durability !== "power") {
  console.error(`unknown durability "${durability}"; known: process, power`);
  process.exit(2);
}
const port = Number(values.port ?? env.SANDBOX_PORT ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`invalid port ${values.port ?? env.SANDBOX_PORT}`);
  process.exit(2);
}

const store = values.store ?? env.SANDBOX_STORE ?? "sqlite";
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
try {
  sandbox = await startSandbox({
    host: values.host ?? env.SANDBOX_HOST ?? "127.0.0.1",
    port,
    dataDir: values["data-dir"] ?? env.SANDBOX_DATA_DIR,
    store,
    instanceId: values.instance ?? env.SANDBOX_INSTANCE,
    plan,
    durability,
    allowPrivateWebhookTargets: values["allow-private-webhooks"] ?? env.SANDBOX_ALLOW_PRIVATE_WEBHOOKS === "1",
    accessLog: values["access-log"] ?? env.SANDBOX_ACCESS_LOG === "1",
  });
} catch (error) {
  // One line, and an exit code per cause (documented above and in the README).
  const message = ((error as Error).message ?? String(error)).split("\n")[0];
  if (error instanceof SchemaTooNewError) {
    console.error(`sandbox: ${message}`);
    process.exit(3);
  }
  if (/^unknown store/.test(message)) {
    console.error(`sandbox: ${message}`);
    process.exit(2);
  }
  if (store !== "sqlite") {
    console.error(`sandbox: cannot open the store: ${message}`);
    process.exit(4);
  }
  throw error;
}

if (values.json) {
  console.log(JSON.stringify({ url: sandbox.url, port: sandbox.port, dataDir: sandbox.dataDir, store: sandbox.store, instance: sandbox.instance, plan, durability, keys: sandbox.keys }));
} else {
  const { familyA, familyB, webhookSecrets } = sandbox.keys;
  console.log(
    [
      `Payment Collection sandbox listening on ${sandbox.url}`,
      sandbox.store.kind === "sqlite" ? `  data directory: ${sandbox.dataDir}` : `  store: ${sandbox.store.location} (shared; instance ${sandbox.instance})`,
      `  rate-limit plan: ${plan}; durability: ${durability}`,
      "  family A keys (x-api-key):",
      `    primary          ${familyA.primary}`,
      `    noMerchantRead   ${familyA.noMerchantRead}`,
      `    secondAccount    ${familyA.secondAccount}`,
      `    rateLimits       ${familyA.rateLimits}`,
      "  family B keys (X-API-Key):",
      `    primary          ${familyB.primary}`,
      `    secondAccount    ${familyB.secondAccount}`,
      `    rateLimits       ${familyB.rateLimits}`,
      "  webhook secrets:",
      `    primary          ${webhookSecrets.primary}`,
      `    secondAccount    ${webhookSecrets.secondAccount}`,
      `    rateLimits       ${webhookSecrets.rateLimits}`,
      "  controls: POST /_sandbox/boletos, /_sandbox/charges/{id}/pay, /_sandbox/pix/{pixId}/pay,",
      "            /_sandbox/boletos/{boletoId}/pay, /_sandbox/transactions/{id}/status, /_sandbox/clock/advance,",
      "            GET /_sandbox/webhooks/secret, POST /_sandbox/webhooks/secret/rotate, GET|PUT /_sandbox/webhooks/endpoint,",
      "            GET /_sandbox/webhooks/deliveries",
    ].join("\n"),
  );
}

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void sandbox.close().then(() => process.exit(0));
  });
}
