/**
 * Progress of long runs: shown on a terminal, quiet in CI or when output is not a terminal
 * unless asked for, silenced by --quiet; a pacing wait shows how long is left.
 */
import { describe, expect, it } from "vitest";
import { progressMode, streamProgress } from "../src/runner/progress.ts";

function recorder() {
  const chunks: string[] = [];
  return { chunks, stream: { write: (text: string) => chunks.push(text), columns: 200 } };
}

describe("progress", () => {
  it("is shown on a terminal outside CI, asked for with --progress, silenced by --quiet", () => {
    expect(progressMode({ quiet: false, progress: false, isTTY: true, ci: undefined })).toBe("status");
    expect(progressMode({ quiet: false, progress: false, isTTY: true, ci: "true" })).toBe("off");
    expect(progressMode({ quiet: false, progress: false, isTTY: false, ci: undefined })).toBe("off");
    expect(progressMode({ quiet: false, progress: true, isTTY: false, ci: "true" })).toBe("lines");
    expect(progressMode({ quiet: true, progress: true, isTTY: true, ci: undefined })).toBe("off");
  });

  it("names the suite and its size, counts checks, and counts down a pacing wait", () => {
    const { chunks, stream } = recorder();
    const progress = streamProgress("status", stream);
    progress.suite("family-b", "Dredd suite", 3);
    progress.checked();
    progress.pause(30_000, "rate-limit window of family-b:first-account used up");
    progress.end();
    const text = chunks.join("");
    expect(text).toContain("family B: Dredd suite (3 checks)\n");
    expect(text).toMatch(/family B: Dredd suite: 1 of 3 checks · 1 done in all · pacing: \d+ s left \(rate-limit window of family-b:first-account used up\)/);
    expect(chunks.at(-1)).toBe("\r\u001b[K");
  });

  it("prints plain lines off a terminal", () => {
    const { chunks, stream } = recorder();
    const progress = streamProgress("lines", stream);
    progress.suite("family-a", "scenarios", 17);
    progress.pause(12_000, "429 on GET /v1/merchant");
    progress.end();
    expect(chunks.join("")).not.toContain("\r");
    expect(chunks.join("")).toMatch(/family A: scenarios \(17 checks\)\n {2}pacing: waiting \d+ s \(429 on GET \/v1\/merchant\)\n/);
  });
});
