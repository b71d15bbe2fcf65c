/**
 * `payment-collection conformance --mock`: the command starts the Prism mock of both families,
 * runs the suites against it under `full` (its default against the mock, which serves the
 * contract with its decisions) and stops it. Every documented response asked for by status
 * conforms; what a stateless mock cannot show is reported not applicable, with the reason.
 * `payment-collection mock` on a port in use says which option picks another.
 */
import { createServer, type Socket } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { conformanceCommand, defaultProfile } from "../src/cli.ts";
import { parseTarget } from "../src/core/target.ts";
import { mockCommand } from "../src/mock/serve.ts";
import { coverage, failed, type RunReport } from "../src/core/results.ts";

afterEach(() => vi.restoreAllMocks());

/** Runs a command in this process; what it printed on stderr. */
async function quietly(command: () => Promise<number>): Promise<{ code: number; stderr: string[] }> {
  const stderr: string[] = [];
  vi.spyOn(console, "log").mockImplementation(() => {});
  vi.spyOn(console, "error").mockImplementation((...parts: unknown[]) => void stderr.push(parts.join(" ")));
  return { code: await command(), stderr };
}

describe("the conformance suites against the Prism mock (--mock)", () => {
  it("pass every schema-level check under full and say why the others do not apply", { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "conformance-mock-"));
    try {
      const json = join(dir, "report.json");
      const { code } = await quietly(() => conformanceCommand(["--mock", "--quiet", "--json", json]));
      const report = JSON.parse(readFileSync(json, "utf8")) as RunReport;
      expect(code).toBe(0);
      expect(report.profile).toBe("full");
      expect(failed(report).map((r) => `${r.id}: ${r.reasons.join("; ")}`)).toEqual([]);
      // Every documented response of both families is asked for and checked.
      expect(coverage(report).filter((e) => e.exercisedBy.length === 0)).toEqual([]);
      const notApplicable = report.results.filter((r) => r.verdict === "not-applicable");
      expect(notApplicable.length).toBeGreaterThan(0);
      for (const r of notApplicable) expect(r.reasons[0]).toMatch(/stateless mock/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

it("a target file naming the mock (mock: prism) runs full too, unless --profile says otherwise; any other runs seed", () => {
  const servers = { familyA: { baseUrl: "http://127.0.0.1:4010" } };
  expect(defaultProfile(parseTarget({ mock: "prism", ...servers }, "mock.json"))).toBe("full");
  expect(defaultProfile(parseTarget(servers, "server.json"))).toBe("seed");
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
