/**
 * A temporary sandbox for a test run: a fresh data folder, the sandbox on a free loopback
 * port, the fixtures made through its controls, and the conformance target file that names
 * them. `npm start`, the conformance self-test and developers all start one this way.
 *
 *   const sandbox = await startTemporarySandbox({ plan: "generous" });
 *   // run the suites against sandbox.targetFile (or sandbox.target), then:
 *   await sandbox.close();
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PlanName, RateLimitPlan } from "../plans.ts";
import { startSandbox, type RunningSandbox } from "../server.ts";
import { provisionSandboxTarget, type SandboxTargetOptions, type TargetDocument } from "./provision.ts";

export interface TemporarySandboxOptions extends SandboxTargetOptions {
  /** Rate-limit plan (default: `generous`, which never limits a test run). */
  plan?: PlanName | RateLimitPlan;
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
  // Loopback webhook targets allowed: the webhook scenarios receive on 127.0.0.1.
  const sandbox = await startSandbox({ port: 0, dataDir, plan: options.plan ?? "generous", allowPrivateWebhookTargets: true });
  const close = async (): Promise<void> => {
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const target = await provisionSandboxTarget(sandbox.url, sandbox.keys, options);
    const targetFile = join(dataDir, "target.json");
    writeFileSync(targetFile, `${JSON.stringify(target, null, 2)}\n`);
    return { url: sandbox.url, keys: sandbox.keys, target, targetFile, close };
  } catch (error) {
    await close();
    throw error;
  }
}
