/**
 * Against the Prism mock of the contract, every documented response asked for by status
 * conforms; what a stateless mock cannot show is reported not applicable, with the reason.
 * `payment-collection mock` on a port in use says which option picks another.
 */
import { createServer, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mockCommand } from "../src/mock/serve.ts";
import { mockTarget } from "../src/mock/mock-target.ts";
import { startMock, type RunningMock } from "../src/mock/start-mock.ts";
import { coverage, failed } from "../src/core/results.ts";
import { runConformance } from "../src/runner/run.ts";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
}, 120_000);
afterAll(async () => {
  await mock?.close();
});
afterEach(() => vi.restoreAllMocks());

/** Runs a command in this process; what it printed on stderr. */
async function quietly(command: () => Promise<number>): Promise<{ code: number; stderr: string[] }> {
  const stderr: string[] = [];
  vi.spyOn(console, "log").mockImplementation(() => {});
  vi.spyOn(console, "error").mockImplementation((...parts: unknown[]) => void stderr.push(parts.join(" ")));
  return { code: await command(), stderr };
}


describe("the conformance suites against the Prism mock", () => {
  it("pass every schema-level check and say why the others do not apply", { timeout: 180_000 }, async () => {
    const report = await runConformance({ target: mockTarget(mock.urls), profile: "full" });
    expect(failed(report).map((r) => `${r.id}: ${r.reasons.join("; ")}`)).toEqual([]);
    // Every documented response of both families is asked for and checked.
    expect(coverage(report).filter((e) => e.exercisedBy.length === 0)).toEqual([]);
    const notApplicable = report.results.filter((r) => r.verdict === "not-applicable");
    expect(notApplicable.length).toBeGreaterThan(0);
    for (const r of notApplicable) expect(r.reasons[0]).toMatch(/stateless mock/);
  });
});

describe("payment-collection mock", () => {
  it("on a port in use: one line naming the option that picks another, exit 2", { timeout: 60_000 }, async () => {
    // Holds the port and answers nothing: the connections Prism's start-up probes open are ended at the close.
    const sockets = new Set<Socket>();
    const taken = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const { code, stderr } = await quietly(() => mockCommand(["--port-family-a", String(port)], {}));
      expect(code).toBe(2);
      expect(stderr).toEqual([`payment-collection mock: port ${port} on 127.0.0.1 is in use; pick another with --port-family-a (0: any free port)`]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
