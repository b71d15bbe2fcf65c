/**
 * Support of the PostgreSQL tests: they run when SANDBOX_TEST_POSTGRES_URL names a database
 * (`sandbox/scripts/ci-postgres.sh` makes one and prints its URL). Unset locally, each suite is
 * skipped with the reason in its name; unset in CI (CI=true), each suite fails.
 *
 * Each test gets its own schema in that database (`freshSchema`, dropped afterwards), selected
 * through the connection string (`options=-c search_path=...`), so test files run in parallel
 * without seeing each other's rows.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { describe, it } from "vitest";
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from "../../src/server.ts";

export const PG_URL = process.env.SANDBOX_TEST_POSTGRES_URL;

/** `describe` when a database is given; a visible skip with its reason locally; a failure in CI. */
export function pgDescribe(name: string, body: () => void): void {
  if (PG_URL) describe(name, body);
  else if (process.env.CI === "true") {
    describe(name, () => {
      it("has a PostgreSQL database (SANDBOX_TEST_POSTGRES_URL)", () => {
        throw new Error("CI must provide SANDBOX_TEST_POSTGRES_URL (export SANDBOX_TEST_POSTGRES_URL=\"$(bash sandbox/scripts/ci-postgres.sh)\" in .ci/run)");
      });
    });
  } else {
    console.warn(`skipped "${name}": SANDBOX_TEST_POSTGRES_URL is not set (export SANDBOX_TEST_POSTGRES_URL="$(bash sandbox/scripts/ci-postgres.sh)" to run it)`);
    describe.skip(`${name} [skipped: SANDBOX_TEST_POSTGRES_URL is not set; run sandbox/scripts/ci-postgres.sh]`, body);
  }
}

/** The connection string of `url` with `search_path` set to `schema`. */
export function withSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("options", `-c search_path=${schema}`);
  return parsed.toString();
}

/** A new, empty schema in the test database; `drop` removes it and everything in it. */
export async function freshSchema(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `sbx_test_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${name}`);
  await admin.end();
  return {
    name,
    url: withSchema(PG_URL!, name),
    async drop() {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      await client.end();
    },
  };
}

/** Starts `count` sandbox instances over one store (loopback webhooks allowed, generous plan unless told). */
export async function startInstances(count: number, store: string, options: StartSandboxOptions = {}): Promise<RunningSandbox[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "sandbox-pg-"));
  const instances: RunningSandbox[] = [];
  try {
    for (let i = 0; i < count; i++) {
      instances.push(await startSandbox({ port: 0, dataDir, plan: "generous", allowPrivateWebhookTargets: true, store, instanceId: `instance-${i + 1}`, ...options }));
    }
  } catch (error) {
    await Promise.all(instances.map((s) => s.close()));
    throw error;
  }
  const close = instances.map((s) => s.close.bind(s));
  instances.forEach((s, i) => {
    s.close = async () => {
      await close[i]();
      if (i === 0) rmSync(dataDir, { recursive: true, force: true });
    };
  });
  return instances;
}

export { roundRobinProxy } from "../../src/harness/round-robin-proxy.ts";
