/**
 * Vitest global setup of the sandbox's tests: where SANDBOX_TEST_POSTGRES_URL is unset and the
 * machine has Debian's PostgreSQL installed (a cluster `pg_lsclusters` lists), the PostgreSQL
 * tests get a local database the way CI makes one: `sandbox/scripts/ci-postgres.sh` starts the
 * cluster if needed and creates the role and database. The cluster is left running, as CI
 * leaves it: another test run on the machine may be using it. Without Debian's PostgreSQL (or
 * as a user that cannot `su postgres`), nothing happens and the tests are skipped with their
 * message (support.ts).
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(new URL("../../scripts/ci-postgres.sh", import.meta.url));

/** The first cluster Debian's tools list (`15 main`), or undefined without them. */
function debianCluster(): string | undefined {
  try {
    const line = execFileSync("pg_lsclusters", ["-h"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).split("\n")[0]?.trim();
    return line ? line.split(/\s+/).slice(0, 2).join(" ") : undefined;
  } catch {
    return undefined;
  }
}

export default function setup(): void {
  if (process.env.SANDBOX_TEST_POSTGRES_URL) return;
  // ci-postgres.sh works as root (su postgres); it installs nothing when a cluster exists.
  if (process.getuid?.() !== 0) return;
  const cluster = debianCluster();
  if (!cluster) return;
  try {
    const url = execFileSync("bash", [SCRIPT], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 }).trim();
    // The test workers start after this setup and inherit the environment.
    process.env.SANDBOX_TEST_POSTGRES_URL = url;
  } catch (error) {
    console.warn(`PostgreSQL tests: the local cluster ${cluster} could not be started (${((error as Error).message ?? String(error)).split("\n")[0]}); they are skipped`);
  }
}
