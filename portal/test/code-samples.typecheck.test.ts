/**
 * The client code samples of the references import `@payment-collection/client` (the name in
 * client/package.json) and compile against the client's sources (client/src) with
 * `tsc --strict`: a sample that calls a path, a parameter or a body field the client does
 * not accept would teach readers a call that does not compile. A deliberately wrong sample
 * proves the check can fail.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientEntry, clientImportSpecifier } from "../src/client-binding.ts";
import type { DecisionLinks } from "../src/decision-badges.ts";
import { operationsOf as listOperations } from "@payment-collection/contract/model/index.ts";
import { decorateReference, loadReferenceSources } from "../src/references.ts";
import { expectedReferences, operationsOf, ROOT } from "./support.ts";

const LINKS: DecisionLinks = { page: "decisions.html", titles: new Map() };

interface Sample {
  file: string;
  operationId: string;
  source: string;
}

let scratch: string;
let samples: Sample[] = [];

beforeAll(async () => {
  mkdirSync(join(ROOT, ".tmp"), { recursive: true });
  // Inside the package, so that node_modules and @types resolve as for a consumer.
  scratch = mkdtempSync(join(ROOT, ".tmp", "docs-samples-"));
  for (const reference of await loadReferenceSources(ROOT)) {
    if (reference.sandboxOnly) continue;
    const decorated = decorateReference(ROOT, reference, LINKS);
    if (!decorated) continue;
    for (const entry of listOperations(decorated)) {
      const client = (entry.operation["x-codeSamples"] as Array<{ label: string; source: string }>).find((sample) => sample.label === "TypeScript client");
      if (client) samples.push({ file: `${reference.id}-${entry.operationId}.mts`, operationId: entry.operationId, source: client.source });
    }
  }
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function typecheck(files: Sample[]): { ok: boolean; output: string } {
  for (const sample of files) writeFileSync(join(scratch, sample.file), `${sample.source}\n`);
  writeFileSync(
    join(scratch, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        types: ["node"],
        // The samples import the client as a consumer would; here it resolves to its sources.
        paths: { [clientImportSpecifier(ROOT)]: [clientEntry(ROOT)] },
      },
      files: files.map((sample) => sample.file),
    }),
  );
  try {
    execFileSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(scratch, "tsconfig.json")], { encoding: "utf8", stdio: "pipe" });
    return { ok: true, output: "" };
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failure.stdout ?? ""}${failure.stderr ?? ""}` };
  }
}

/** The wrong sample: createCharge's amount sent as a string. */
function wrongSample(): Sample {
  const createCharge = samples.find((sample) => sample.operationId === "createCharge")!;
  return { ...createCharge, file: "wrong-createCharge.mts", source: createCharge.source.replace(/amount: \d+/, 'amount: "15000"') };
}

/**
 * tsc's errors split by the file they name: the samples and the wrong one are compiled in one
 * program (a second program compiled the client's sources again: about 2 CPU-seconds).
 */
let compiled: { ok: boolean; ofWrong: string[]; ofOthers: string[] } | undefined;
function compileAll(): NonNullable<typeof compiled> {
  if (compiled) return compiled;
  const wrong = wrongSample();
  const result = typecheck([...samples, wrong]);
  // Each error starts a line with its file's path; the lines after it, indented, belong to it.
  const errors = result.output.split(/\n(?=\S)/).filter((text) => text.trim() !== "");
  compiled = {
    ok: result.ok,
    ofWrong: errors.filter((text) => text.split("\n")[0]!.includes(wrong.file)),
    ofOthers: errors.filter((text) => !text.split("\n")[0]!.includes(wrong.file)),
  };
  return compiled;
}

describe("client code samples", () => {
  it("exist for every operation of the two families", () => {
    const expected = expectedReferences()
      .filter((reference) => reference.id.startsWith("family-"))
      .flatMap((reference) => operationsOf(reference.document).map((operation) => operation.operationId));
    expect(expected.length).toBeGreaterThanOrEqual(19);
    expect(samples.map((sample) => sample.operationId).sort()).toEqual(expected.sort());
  });

  it("import the client package by its name", () => {
    expect(clientImportSpecifier(ROOT)).toBe("@payment-collection/client");
    for (const sample of samples) expect(sample.source, sample.file).toContain(`from "@payment-collection/client"`);
  });

  it("compile with tsc --strict against the client's sources", () => {
    expect(compileAll().ofOthers.join("\n")).toBe("");
  });

  it("and a sample with a wrong body field does not", () => {
    const wrong = wrongSample();
    expect(wrong.source).not.toBe(samples.find((sample) => sample.operationId === "createCharge")!.source);
    const { ok, ofWrong } = compileAll();
    expect(ok).toBe(false);
    expect(ofWrong.join("\n")).toContain("wrong-createCharge.mts");
  });
});
