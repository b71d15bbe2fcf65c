/**
 * Migrations of the PostgreSQL store: instances starting at the same moment against an empty
 * database do not race (an advisory lock serialises the migration), and a database whose
 * schema is newer than the code is refused: one line on stderr, exit code 3.
 */
import { spawn } from "node:child_process";
import pg from "pg";
import { afterEach, expect, it } from "vitest";
import { openPostgresStore } from "../../src/store/postgres.ts";
import { PG_SCHEMA_VERSION } from "../../src/store/postgres/schema.ts";
import { freshSchema, pgDescribe } from "./support.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

pgDescribe("PostgreSQL schema migrations", () => {
  it("lets several instances start at once against an empty database", async () => {
    const schema = await freshSchema();
    cleanups.push(schema.drop);
    const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore({ url: schema.url })));
    await Promise.all(stores.map((s) => s.close()));
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    const { rows } = await client.query("SELECT version FROM sandbox_schema_version ORDER BY version");
    await client.end();
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => i + 1));
  });

  it("refuses a database with a newer schema: one line, exit code 3", { timeout: 30_000 }, async () => {
    const schema = await freshSchema();
    cleanups.push(schema.drop);
    await (await openPostgresStore({ url: schema.url })).close();
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    await client.query("INSERT INTO sandbox_schema_version (version) VALUES ($1)", [PG_SCHEMA_VERSION + 1]);
    await client.end();
    const cli = new URL("../../src/cli.ts", import.meta.url).pathname;
    const child = spawn(process.execPath, ["--import", "tsx", cli, "--port", "0", "--store", schema.url], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.once("exit", done));
    expect(code).toBe(3);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/schema version \d+, newer than this sandbox supports/);
  });
});
