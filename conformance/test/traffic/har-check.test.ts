/**
 * The HAR front end: a client session recorded against the sandbox is clean; a hand-edited copy
 * with a broken br_code and an undocumented query parameter shows both, each named by its
 * statement; bad files stop with one line naming the entry and the fault.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTemporarySandbox, type TemporarySandbox } from "@payment-collection/sandbox/harness/temporary-sandbox.ts";
import { loadCatalogue } from "../../src/core/statement-map.ts";
import { TrafficEngine, violationLine } from "../../src/traffic/engine.ts";
import { familyRoutes } from "../../src/traffic/routing.ts";
import { checkHar } from "../../src/traffic/har-check.ts";
import { HarError } from "../../src/traffic/har-reader.ts";
import { recordClientSession, writeHar, type Har } from "./har-fixture.ts";
import type { Profile } from "../../src/core/profiles/index.ts";

let sandbox: TemporarySandbox;
let dir: string;
let har: Har;

beforeAll(async () => {
  sandbox = await startTemporarySandbox({ plan: "generous" });
  dir = mkdtempSync(join(tmpdir(), "har-check-"));
  har = await recordClientSession(sandbox);
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function check(file: string, profile: Profile = "seed", maxBody = 1024 * 1024) {
  const routes = familyRoutes({ "family-a": [sandbox.url], "family-b": [sandbox.url] });
  const engine = new TrafficEngine({ profile, routes });
  await checkHar(file, engine, maxBody);
  return engine.summary();
}

describe("traffic check of a HAR file", () => {
  it("finds nothing in a client session with the sandbox, under seed and full; the other host's entry is counted and skipped", async () => {
    const file = writeHar(join(dir, "clean.har"), har);
    for (const profile of ["seed", "full"] as const) {
      const summary = await check(file, profile);
      expect(summary.violations.map(violationLine)).toEqual([]);
      expect(summary.consumerFindings.map(violationLine)).toEqual([]);
      expect(summary.exchanges).toBe(har.log.entries.length);
      expect(summary.skippedOtherHosts).toBe(1);
      expect(summary.coverage.responses.seen).toBe(7);
    }
  });

  it("finds a broken br_code (server) and an undocumented query parameter (consumer), each with its statement id", async () => {
    const edited: Har = structuredClone(har);
    const creation = edited.log.entries[0]!;
    const body = JSON.parse(creation.response.content.text!);
    const code: string = body.pix.br_code;
    body.pix.br_code = `${code.slice(0, -4)}${code.endsWith("0000") ? "FFFF" : "0000"}`;
    creation.response.content.text = JSON.stringify(body);
    const read = edited.log.entries[1]!;
    read.request.url = `${read.request.url}?expand=payer`;
    const summary = await check(writeHar(join(dir, "edited.har"), edited));
    const catalogue = loadCatalogue();

    expect(summary.violations).toHaveLength(1);
    const [broken] = summary.violations;
    expect(broken).toMatchObject({ side: "server", operationId: "createCharge", status: 201, naming: { kind: "statement" } });
    expect(catalogue.byId.get(broken!.naming.id)?.quote).toContain("br_code");
    expect(broken!.expected).toMatch(/pix\.br_code a valid br-code/);
    expect(broken!.seen).toContain(body.pix.br_code);

    expect(summary.consumerFindings).toHaveLength(1);
    const [query] = summary.consumerFindings;
    expect(query).toMatchObject({ side: "consumer", operationId: "getCharge", naming: { id: "A-CHARGES-ENDPOINT-get", kind: "statement" } });
    expect(query!.seen).toBe("expand=payer");
    expect(query!.reproduction).toContain("?expand=payer");
  });

  it("never shows a key: a short fingerprint names it", async () => {
    const edited: Har = structuredClone(har);
    edited.log.entries[2]!.response.status = 500;
    const summary = await check(writeHar(join(dir, "keys.har"), edited));
    const text = JSON.stringify(summary);
    expect(summary.violations.length).toBeGreaterThan(0);
    for (const key of [sandbox.target.familyA.keys.primary!, sandbox.target.familyB.keys.primary!]) expect(text).not.toContain(key);
    expect(summary.violations[0]!.key).toMatch(/^key#[0-9a-f]{8}$/);
  });

  it("counts a body over the limit as not validated, without a violation", async () => {
    const summary = await check(writeHar(join(dir, "large.har"), har), "seed", 64);
    expect(summary.notValidated.tooLarge).toBeGreaterThan(0);
    expect(summary.violations.map(violationLine)).toEqual([]);
  });

  it("stops on a truncated file, naming the entry it ends in", async () => {
    const text = JSON.stringify(har);
    const file = join(dir, "truncated.har");
    const cut = text.indexOf('"startedDateTime"', text.indexOf('"startedDateTime"') + 1) + 40;
    writeFileSync(file, text.slice(0, cut));
    await expect(check(file)).rejects.toThrow(new HarError("truncated HAR file: it ends inside entry 2 (byte " + cut + ")"));
  });

  it("stops on a file that is not JSON, and on an entry without a URL", async () => {
    const notJson = join(dir, "not-json.har");
    writeFileSync(notJson, "<html>not a har</html>");
    await expect(check(notJson)).rejects.toThrow(/^not a HAR file: not JSON \(it begins with "<html>/);
    const edited: Har = structuredClone(har);
    delete (edited.log.entries[2]!.request as { url?: string }).url;
    await expect(check(writeHar(join(dir, "no-url.har"), edited))).rejects.toThrow("entry 3: request.url is not a string");
  });
});

