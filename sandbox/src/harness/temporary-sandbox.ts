/**
 * A temporary sandbox for a test run: a fresh data folder, the sandbox on a free loopback
 * port granting browsers of two origins (D44) and timing out a slow request in seconds (D39's
 * 408), the fixtures made through its controls, and the conformance target file that names
 * them and declares the origins and the timeout. `npm start`, the
 * conformance self-test, the mutation run's units and developers all start one this way.
 *
 *   const sandbox = await startTemporarySandbox({ plan: "generous" });
 *   // run the suites against sandbox.targetFile (or sandbox.target), then:
 *   await sandbox.close();
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePlan, type PlanName, type RateLimitPlan } from "../plans.ts";
import { startSandbox, type RunningSandbox } from "../server.ts";
import { isPostgresUrl } from "../store/open.ts";
import { roundRobinProxy } from "./round-robin-proxy.ts";
import { provisionSandboxTarget, type SandboxTargetOptions, type TargetDocument } from "./provision.ts";

/**
 * The origins a temporary sandbox grants cross-origin access (D44) unless told otherwise: two,
 * so that the suites see each one named for itself (the portal's local origin and another).
 */
export const TEST_CORS_ORIGINS: readonly string[] = ["http://localhost:8080", "https://console.example.test"];

/**
 * The HTTP timeouts of a temporary sandbox unless told otherwise: a request whose headers or
 * body have not all come in 2 s is answered 408, checked every quarter second, so that a run
 * judges the 408 in seconds (its target declares the timeout). Two seconds, not one: on a loaded
 * machine a client can stall for a second between the writes of one request.
 */
export const TEST_TIMEOUTS = { requestMs: 2_000, checkIntervalMs: 250 } as const;

export interface TemporarySandboxOptions extends SandboxTargetOptions {
  /** Rate-limit plan (default: `generous`, which never limits a test run). */
  plan?: PlanName | RateLimitPlan;
  /** The store: `sqlite` (default, in the temporary folder) or a PostgreSQL connection string. */
  store?: string;
  /**
   * Instances over the store (default 1; more needs a PostgreSQL store). With several, a
   * round-robin proxy on loopback is started in front of them and `url` is the proxy's: the
   * requests of one scenario alternate between the instances.
   */
  instances?: number;
  /** Let webhooks reach loopback and private addresses (default true: the webhook scenarios receive on 127.0.0.1). */
  allowPrivateWebhookTargets?: boolean;
  /** The origins granted cross-origin access and declared in the target (default TEST_CORS_ORIGINS; [] grants none). */
  corsOrigins?: readonly string[];
  /** The sandbox's HTTP timeouts (default TEST_TIMEOUTS), its request timeout declared in the target. */
  timeouts?: { requestMs: number; checkIntervalMs: number };
}

export interface TemporarySandbox {
  url: string;
  keys: RunningSandbox["keys"];
  /** The target file's content: keys, fixtures and the webhook secret. */
  target: TargetDocument;
  /** The same target, written as JSON in the sandbox's data folder. */
  targetFile: string;
  /** Stops the sandbox and removes its data folder. */
  close(): Promise<void>;
}

export async function startTemporarySandbox(options: TemporarySandboxOptions = {}): Promise<TemporarySandbox> {
  const dataDir = mkdtempSync(join(tmpdir(), "sandbox-run-"));
  const count = options.instances ?? 1;
  const corsOrigins = options.corsOrigins ?? TEST_CORS_ORIGINS;
  if (count > 1 && !isPostgresUrl(options.store)) throw new Error("several sandbox instances need a shared store (a postgres:// connection string)");
  const instances: RunningSandbox[] = [];
  let proxy: { url: string; close(): Promise<void> } | undefined;
  const close = async (): Promise<void> => {
    await proxy?.close();
    await Promise.all(instances.map((instance) => instance.close()));
    rmSync(dataDir, { recursive: true, force: true });
  };
  const allowPrivate = options.allowPrivateWebhookTargets ?? true;
  const timeouts = options.timeouts ?? TEST_TIMEOUTS;
  try {
    for (let i = 0; i < count; i++) {
      // Loopback webhook targets allowed unless told otherwise: the webhook scenarios receive on 127.0.0.1.
      // Checkpoints inline: a run's sandbox lives seconds, and a checkpoint worker per start
      // cost the self-test's 500-odd starts more CPU than it saved them.
      instances.push(
        await startSandbox({ port: 0, dataDir, plan: options.plan ?? "generous", allowPrivateWebhookTargets: allowPrivate, store: options.store, instanceId: count > 1 ? `instance-${i + 1}` : undefined, corsOrigins, checkpoints: "inline", timeouts }),
      );
    }
    const sandbox = instances[0];
    if (count > 1) proxy = await roundRobinProxy(instances.map((instance) => instance.url));
    const url = proxy?.url ?? sandbox.url;
    const target = await provisionSandboxTarget(url, sandbox.keys, { ...options, declarePlan: resolvePlan(options.plan ?? "generous"), declareCorsOrigins: corsOrigins, declarePrivateWebhookTargets: allowPrivate, declareRequestTimeoutMs: timeouts.requestMs });
    const targetFile = join(dataDir, "target.json");
    writeFileSync(targetFile, `${JSON.stringify(target, null, 2)}\n`);
    return { url, keys: sandbox.keys, target, targetFile, close };
  } catch (error) {
    await close();
    throw error;
  }
}
