/**
 * `--seed N`: two runs of both families' suites with one seed, each against a fresh sandbox,
 * send the same requests in the same order, up to the values the server gave (ids, the fixtures
 * it made, its ports), and give the same verdicts. Their bundles' HARs are compared request by
 * request. (On the generous plan: with rate-limit windows, the requests follow the server's
 * rate-limit answers, which differ with the moment a run starts.)
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it, vi } from "vitest";
import { startTemporarySandbox } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";
import { parseTarget } from "../../src/core/target.ts";
import type { CheckResult } from "../../src/core/results.ts";
import { runAndReport } from "../../src/runner/run-and-report.ts";

const work = mkdtempSync(join(tmpdir(), "bundle-same-seed-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Entry {
  request: { method: string; url: string; headers: Array<{ name: string; value: string }>; postData?: { text: string } };
  response: { content: { text: string } };
  _checks: string[];
  _direction?: string;
}

/** A bundled run of both families against a fresh sandbox. */
async function bundledRun(name: string, seed: number): Promise<{ entries: Entry[]; verdicts: string[] }> {
  const sandbox = await startTemporarySandbox({ plan: "generous", useRateLimitAccount: true });
  try {
    const dir = join(work, name);
    const target = parseTarget(sandbox.target, `the sandbox at ${sandbox.url}`);
    const { report } = await runAndReport(target, { profile: "full", seed, bundle: dir, statements: false, coverage: false, exhaust: true, exhaustCap: 1000, quiet: true });
    const har = JSON.parse(readFileSync(join(dir, "exchanges.har"), "utf8")) as { log: { entries: Entry[] } };
    return { entries: har.log.entries, verdicts: report!.results.map((r: CheckResult) => `${r.id} ${r.verdict}`) };
  } finally {
    await sandbox.close();
  }
}

/**
 * The requests a run sent, with what the server gave replaced by names in order of appearance:
 * every value of six characters or more its answers carried (as it is, and as a URL query
 * carries it), and the ports of loopback URLs.
 */
function requests(entries: Entry[]): string[] {
  const given = new Set<string>();
  const walk = (value: unknown): void => {
    if ((typeof value === "string" || typeof value === "number") && String(value).length >= 6) {
      given.add(String(value));
      // As a query parameter carries it (a list filter bounded by a record's createdAt).
      given.add(encodeURIComponent(String(value)));
    }
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  for (const entry of entries) {
    try {
      walk(JSON.parse(entry.response.content.text));
    } catch {
      // not JSON: nothing given to reuse
    }
  }
  // The lengths of the values by their first six characters: each text is read once, left to
  // right, the longest value starting at a position named (a replace per value costs texts times
  // values, hours for a full run's).
  const lengths = new Map<string, number[]>();
  for (const value of given) {
    const prefix = value.slice(0, 6);
    if (!lengths.has(prefix)) lengths.set(prefix, []);
    if (!lengths.get(prefix)!.includes(value.length)) lengths.get(prefix)!.push(value.length);
  }
  for (const list of lengths.values()) list.sort((a, b) => b - a);
  // A number for the six characters at a position, read without making a string: a run's
  // requests are megabytes (bodies at the size limit), and a string per position cost seconds.
  // Equal prefixes give equal numbers; a number shared by other characters is only a lookup more.
  const hashAt = (text: string, i: number) => {
    let hash = 0;
    for (let k = i; k < i + 6; k += 1) hash = (Math.imul(hash, 31) + text.charCodeAt(k)) | 0;
    return hash;
  };
  const prefixHashes = new Set([...lengths.keys()].map((prefix) => hashAt(prefix, 0)));
  const names = new Map<string, string>();
  const named = (text: string) => {
    const source = text.replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT");
    const parts: string[] = [];
    let copied = 0;
    for (let i = 0; i + 6 <= source.length; ) {
      const value = prefixHashes.has(hashAt(source, i))
        ? lengths
            .get(source.slice(i, i + 6))
            ?.map((length) => source.slice(i, i + length))
            .find((candidate) => given.has(candidate))
        : undefined;
      if (value === undefined) {
        i += 1;
        continue;
      }
      if (!names.has(value)) names.set(value, `<given ${names.size + 1}>`);
      parts.push(source.slice(copied, i), names.get(value)!);
      i += value.length;
      copied = i;
    }
    parts.push(source.slice(copied));
    return parts.join("");
  };
  // Webhook deliveries are the server's requests: all they carry is the server's.
  return entries
    .filter((entry) => entry._direction !== "received")
    .map((e) => named(`${e._checks.join(",")} ${e.request.method} ${e.request.url} ${e.request.headers.map((h) => `${h.name}: ${h.value}`).join("; ")} ${e.request.postData?.text ?? ""}`));
}

/**
 * Where two lists first differ, shown around the first differing character (undefined: equal).
 * Not `toEqual`: its diff of two lists of megabyte requests ran for longer than the test may.
 */
function firstDifference(first: string[], second: string[]): string | undefined {
  const index = first.findIndex((line, i) => line !== second[i]);
  if (index === -1) return first.length === second.length ? undefined : `${first.length} entries against ${second.length}`;
  const [a, b] = [first[index]!, second[index] ?? ""];
  let at = 0;
  while (a[at] === b[at]) at += 1;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 120), at + 120));
  return `entry ${index} differs at character ${at}: ${around(a)} against ${around(b)}`;
}

it("two runs with one seed against fresh sandboxes send the same requests in the same order and give the same verdicts", { timeout: 240_000 }, async () => {
  vi.spyOn(console, "log").mockImplementation(() => {});
  try {
    const [first, second] = await Promise.all([bundledRun("first", 20_261_128), bundledRun("second", 20_261_128)]);
    expect(first.entries.length).toBeGreaterThan(300);
    expect(firstDifference(requests(first.entries), requests(second.entries))).toBeUndefined();
    expect(firstDifference(first.verdicts, second.verdicts)).toBeUndefined();
  } finally {
    vi.restoreAllMocks();
  }
});
