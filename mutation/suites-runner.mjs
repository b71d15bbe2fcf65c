// The mutation run's test runner: the conformance suites unit by unit (conformance/test/mutation/),
// run in this process against sandboxes started in it. Stryker's own vitest runner starts a new
// worker for every mutant, which loads the contract model, the suites and Dredd again each time
// (seconds a mutant); here they load once per process, and only the sandbox's modules are
// evaluated again for each mutant (generations.mjs), so that a mutant in what runs when they
// load is seen, and no state a module keeps carries over from one mutant to the next.
import { readFileSync } from "node:fs";
import { register } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { commonTokens, declareClassPlugin, PluginKind } from "@stryker-mutator/api/plugin";
import { determineHitLimitReached, DryRunStatus, MutantRunStatus, TestStatus, toMutantRunResult } from "@stryker-mutator/api/test-runner";
import { noteKill, orderUnits, pastKills } from "./unit-order.mjs";

/** Stryker's instrumented code keeps the active mutant, the current test and the coverage here. */
const ns = (globalThis.__stryker__ ??= {});

class SuitesRunner {
  static inject = [commonTokens.logger];
  generation = 0;
  /** Each unit's time in the dry run: with the record's past kills, the order of a mutant's units (unit-order.mjs). */
  durations = new Map();
  /** Errors the sandbox threw outside any request (a timer, a callback) during the current unit. */
  stray = [];

  constructor(log) {
    this.log = log;
  }

  capabilities() {
    // Every run evaluates the sandbox's modules again, so a mutant active while they load is seen.
    return { reloadEnvironment: true };
  }

  async init() {
    // Stryker's copy of the repository: its sources carry the mutants.
    const root = process.cwd();
    const tsconfig = join(root, "tsconfig.json");
    process.env.TSX_TSCONFIG_PATH = tsconfig;
    const { register: registerTsx } = await import("tsx/esm/api");
    registerTsx({ tsconfig });
    register(new URL("./generations.mjs", import.meta.url), { data: { sandboxSources: pathToFileURL(join(root, "sandbox/src/")).href } });
    this.harness = await import(pathToFileURL(join(root, "conformance/test/mutation/unit-run.ts")).href);
    // `--ci` names the units its sample runs against (run.ts): the others are not run at all.
    const only = JSON.parse(process.env.MUTATION_UNITS ?? "[]");
    const units = this.harness.suiteUnits().filter((unit) => only.length === 0 || only.some((part) => unit.name.includes(part)));
    this.units = new Map(units.map((unit) => [unit.name, unit]));
    // Where each unit's test is: its line of suite-inputs.txt (written by run.ts), which carries
    // the digest of the suites, so that Stryker's incremental diff sees a changed suite.
    const inputs = join(root, "mutation/suite-inputs.txt");
    const lines = readFileSync(inputs, "utf8").split("\n");
    this.locations = new Map([...this.units.keys()].map((name) => [name, { fileName: inputs, startPosition: { line: lines.findIndex((line) => line.endsWith(`  ${name}`)), column: 0 } }]));
    // The record as this run found it: which unit killed what, for the order of each mutant's units.
    this.past = pastKills(join(root, "mutation/incremental.json"));
    this.sandboxEntry = pathToFileURL(join(root, "sandbox/src/harness/temporary-sandbox.ts")).href;
    const stray = (error) => this.stray.push(error instanceof Error ? error.message : String(error));
    process.on("uncaughtException", stray);
    process.on("unhandledRejection", stray);
  }

  /** The sandbox's modules, evaluated afresh. */
  async freshSandbox() {
    this.generation += 1;
    return (await import(`${this.sandboxEntry}?generation=${this.generation}`)).startTemporarySandbox;
  }

  async runUnits(units, start, bail) {
    const tests = [];
    for (const unit of units) {
      this.stray = [];
      const started = performance.now();
      const problems = [...(await this.harness.runUnit(unit, start)), ...this.stray.map((message) => `the sandbox threw outside a request: ${message}`)];
      const timeSpentMs = Math.round(performance.now() - started);
      const base = { id: unit.name, name: unit.name, timeSpentMs, ...this.locations.get(unit.name) };
      tests.push(problems.length > 0 ? { ...base, status: TestStatus.Failed, failureMessage: problems.join("\n") } : { ...base, status: TestStatus.Success });
      if (problems.length > 0 && bail) break;
    }
    return tests;
  }

  async dryRun() {
    ns.activeMutant = undefined;
    const start = await this.freshSandbox();
    const tests = [];
    for (const unit of this.units.values()) {
      ns.currentTestId = unit.name;
      tests.push(...(await this.runUnits([unit], start, false)));
      ns.currentTestId = undefined;
    }
    for (const test of tests) this.durations.set(test.id, test.timeSpentMs);
    return { status: DryRunStatus.Complete, tests, mutantCoverage: ns.mutantCoverage ?? { static: {}, perTest: {} } };
  }

  async mutantRun({ activeMutant, testFilter, hitLimit, disableBail }) {
    const covering = (testFilter ?? [...this.units.keys()]).map((id) => this.units.get(id)).filter((unit) => unit !== undefined);
    const units = orderUnits(this.past, activeMutant, covering, this.durations);
    ns.activeMutant = activeMutant.id;
    ns.hitLimit = hitLimit;
    ns.hitCount = hitLimit === undefined ? undefined : 0;
    try {
      let start;
      try {
        start = await this.freshSandbox();
      } catch (error) {
        // The sandbox's modules do not even load under this mutant: no unit can run.
        return { status: MutantRunStatus.Killed, killedBy: [units[0]?.name ?? "load"], failureMessage: `the sandbox did not load: ${error.message}`, nrOfTests: 1 };
      }
      const tests = await this.runUnits(units, start, !disableBail);
      const killer = tests.find((test) => test.status === TestStatus.Failed);
      if (killer) noteKill(this.past, activeMutant, killer.name);
      return toMutantRunResult(determineHitLimitReached(ns.hitCount, ns.hitLimit) ?? { status: DryRunStatus.Complete, tests });
    } finally {
      ns.activeMutant = undefined;
      ns.hitCount = undefined;
      ns.hitLimit = undefined;
    }
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, "conformance-suites", SuitesRunner)];
