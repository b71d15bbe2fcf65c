/**
 * generated/ is exactly what the build writes from spec/: nothing edited by hand, nothing
 * stale, nothing missing or left over. That the build is deterministic is shown by the same
 * comparison: the committed files were built at another time, often on another machine, and a
 * build that wrote anything else from one run to the next would fail it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildContract } from "../src/build/contract-build.ts";
import { compareTrees, describeDrift, GENERATED_DIR, hasDrift } from "../src/build/check-drift.ts";

const scratch = mkdtempSync(join(tmpdir(), "contract-drift-test-"));
const freshBuild = join(scratch, "fresh");

describe("generated/ against a fresh build", () => {
  beforeAll(async () => {
    const started = performance.now();
    const written = await buildContract(freshBuild);
    console.log(`build into ${freshBuild}: ${written.length} files in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, 300_000);

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("every committed file equals the fresh build byte for byte, none missing, none extra", () => {
    const comparison = compareTrees(GENERATED_DIR, freshBuild);
    console.log(
      `generated/: ${comparison.identical} identical, ${comparison.changed.length} changed, ` +
        `${comparison.missing.length} missing, ${comparison.extra.length} extra`,
    );
    expect(comparison.identical).toBeGreaterThan(0);
    expect(hasDrift(comparison), `generated/ drifted from spec/; run \`npm run build\`:\n${describeDrift(comparison)}`).toBe(false);
  });
});

describe("the comparison itself", () => {
  it("reports a changed byte, a missing file and an extra file", () => {
    const dir = mkdtempSync(join(tmpdir(), "contract-drift-guard-"));
    try {
      const committed = join(dir, "committed");
      const fresh = join(dir, "fresh");
      for (const root of [committed, fresh]) mkdirSync(join(root, "openapi"), { recursive: true });
      writeFileSync(join(committed, "openapi/same.yaml"), "a: 1\n");
      writeFileSync(join(fresh, "openapi/same.yaml"), "a: 1\n");
      writeFileSync(join(committed, "openapi/changed.yaml"), "a: 1\nb: 2\n");
      writeFileSync(join(fresh, "openapi/changed.yaml"), "a: 1\nb: 3\n");
      writeFileSync(join(committed, "openapi/stale.yaml"), "old\n");
      writeFileSync(join(fresh, "openapi/new.yaml"), "new\n");

      const comparison = compareTrees(committed, fresh);
      expect(comparison.identical).toBe(1);
      expect(comparison.changed.map((c) => c.file)).toEqual(["openapi/changed.yaml"]);
      expect(comparison.changed[0].hint).toContain("-b: 2");
      expect(comparison.changed[0].hint).toContain("+b: 3");
      expect(comparison.missing).toEqual(["openapi/new.yaml"]);
      expect(comparison.extra).toEqual(["openapi/stale.yaml"]);
      expect(hasDrift(comparison)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
