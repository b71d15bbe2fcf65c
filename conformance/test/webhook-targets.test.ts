/**
 * Decision D48 against the project's sandbox: started as a production server would run (no
 * --allow-private-webhooks), it refuses every kind of webhook target the check sends, so the
 * check passes under full; started as the suites' units start it (private targets allowed,
 * which its target declares), the check is not applicable, as it is under seed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { webhookTargetsRefused } from "../src/scenarios/webhook-targets-refused.ts";
import { runAgainstSandbox, type RunSetup } from "./sandbox-run.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const onlyTheCheck: RunSetup = { families: ["family-a"], checks: { "family-a": [], "family-b": [] }, derived: false, scenarios: [webhookTargetsRefused] };

async function verdictOf(setup: RunSetup) {
  const report = await runAgainstSandbox({ ...onlyTheCheck, ...setup }, cleanups);
  const result = report.results.find((r) => r.id === webhookTargetsRefused.id);
  expect(result, "the check gave a result").toBeDefined();
  return result!;
}

describe("webhook targets the service must not call (D48)", () => {
  it("passes under full against a sandbox that refuses private targets", { timeout: 60_000 }, async () => {
    const result = await verdictOf({ profile: "full", allowPrivateWebhooks: false });
    expect(result.verdict, result.reasons.join("\n")).toBe("pass");
  });

  it("is not applicable to a sandbox whose target declares private targets allowed", { timeout: 60_000 }, async () => {
    const result = await verdictOf({ profile: "full", allowPrivateWebhooks: true });
    expect(result.verdict).toBe("not-applicable");
    expect(result.reasons.join(" ")).toContain("privateWebhookTargets: allowed");
  });

  it("is not applicable under seed: the document states no such refusal", { timeout: 60_000 }, async () => {
    const result = await verdictOf({ profile: "seed", allowPrivateWebhooks: false });
    expect(result.verdict).toBe("not-applicable");
    expect(result.reasons.join(" ")).toContain("D48");
  });
});
