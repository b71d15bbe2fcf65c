/**
 * A sandbox instance in its own process, for the tests that kill one (`kill -9`): started over
 * the store given in argv[2], with short webhook retries, it prints one JSON line (url, keys).
 */
import { startSandbox } from "../../src/server.ts";

const [store, instanceId] = process.argv.slice(2);
const sandbox = await startSandbox({
  port: 0,
  store,
  instanceId,
  plan: "generous",
  allowPrivateWebhookTargets: true,
  webhooks: { retryDelaysMs: [200, 200, 200, 200, 200], jitter: 0, timeoutMs: 1000, pollIntervalMs: 200 },
});
process.stdout.write(`${JSON.stringify({ url: sandbox.url, keys: sandbox.keys })}\n`);
process.on("SIGTERM", () => void sandbox.close().then(() => process.exit(0)));
