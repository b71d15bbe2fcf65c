/**
 * A reason quotes what the server said without cutting it: an error body's explanation whole,
 * other text cut at a word boundary and marked. The webhook scenarios against a sandbox that
 * refuses loopback targets (started as the quick start shows, without --allow-private-webhooks)
 * are not applicable with a reason that names the flag and keeps the server's answer whole.
 */
import { afterEach, describe, expect, it } from "vitest";
import { describeResponse, shortened } from "../src/core/describe-response.ts";
import { SCENARIOS } from "../src/scenarios/index.ts";
import { runAgainstSandbox } from "./sandbox-run.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe("how a reason quotes a response", () => {
  it("quotes an error body's explanation whole, however long", () => {
    const details = `body/webhook_url: 127.0.0.1 is a non-public address: ${"refused unless allowed; ".repeat(20)}end`;
    const text = describeResponse({ status: 400, body: JSON.stringify({ success: false, error: { code: "VALIDATION_ERROR", message: "The request is invalid.", details } }) });
    expect(text).toBe(`400 VALIDATION_ERROR: The request is invalid: ${details}`);
    const problem = describeResponse({ status: 404, body: JSON.stringify({ type: "about:blank", title: "Not found", status: 404, detail: "No charge with id ch_1.", code: "NOT_FOUND" }) });
    expect(problem).toBe("404 NOT_FOUND: Not found: No charge with id ch_1");
  });

  it("cuts other text at a word boundary and says how much it left out", () => {
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
    const text = shortened(words, 100);
    const [, kept, left] = /^(.*) \.\.\. \((\d+) more characters\)$/.exec(text) ?? [];
    expect(words.startsWith(`${kept} `)).toBe(true);
    expect(kept!.length + Number(left)).toBe(words.length);
    expect(describeResponse({ status: 502, body: "<html>bad gateway</html>" })).toBe("502 <html>bad gateway</html>");
  });
});

describe("the webhook scenarios against a sandbox that refuses loopback targets", () => {
  it("are not applicable, and the reason names --allow-private-webhooks and keeps the sandbox's answer whole", { timeout: 60_000 }, async () => {
    const report = await runAgainstSandbox(
      { families: ["family-a"], profile: "full", allowPrivateWebhooks: false, checks: { "family-a": [], "family-b": [] }, derived: false, scenarios: SCENARIOS.filter((s) => s.id.startsWith("family-a/events/")) },
      cleanups,
    );
    const webhooks = report.results.filter((r) => r.id.startsWith("family-a/events/"));
    expect(webhooks.length).toBeGreaterThan(0);
    for (const result of webhooks) {
      expect(result.verdict, result.id).toBe("not-applicable");
      expect(result.reasons.join(" "), result.id).toMatch(/let it call private addresses for this run: the project's sandbox with --allow-private-webhooks$/);
      // The sandbox's answer, whole: for the receiver's address, or for the name that resolves to it.
      expect(result.reasons.join(" "), result.id).toMatch(/(127\.0\.0\.1 is a non-public address|localhost is a loopback name): refused unless the sandbox runs with --allow-private-webhooks \(SANDBOX_ALLOW_PRIVATE_WEBHOOKS=1\)/);
    }
  });
});
