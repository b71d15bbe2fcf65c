import { startTemporarySandbox } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";
import { parseTarget } from "@payment-collection/conformance/core/target.ts";
import { runConformance } from "@payment-collection/conformance/runner/run.ts";
const [family, cls, profile] = process.argv.slice(2);
const sandbox = await startTemporarySandbox({ plan: "generous", useRateLimitAccount: true });
const report = await runConformance({ target: parseTarget(sandbox.target, "sb"), families: [family as any], profile: (profile ?? "full") as any, checks: { "family-a": [], "family-b": [] }, scenarios: [], derived: { classes: [cls as any] } });
for (const r of report.results) console.log(r.verdict.padEnd(15), r.id, r.verdict !== "pass" ? r.reasons.join("; ").slice(0, 300) : "");
await sandbox.close();
