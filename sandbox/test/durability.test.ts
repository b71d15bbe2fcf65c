/**
 * State survives: a restart keeps every record, idempotency key and clock; and a sandbox
 * killed with SIGKILL in the middle of a write load keeps every charge whose creation it
 * acknowledged. (Parallel requests with one Idempotency-Key: conformance scenario
 * family-a/idempotency/parallel-one-charge.)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { sqliteDriver } from "../src/store/sqlite/driver.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_FILE } from "../src/store/sqlite.ts";
import { customerBody, expectAllConformant, freshKey, startTestSandbox } from "./support.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "sandbox-durability-"));
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function countCharges(dir: string): number {
  const db = sqliteDriver().open(join(dir, DATABASE_FILE));
  try {
    return (db.prepare<{ n: number }>("SELECT COUNT(*) AS n FROM records WHERE kind = 'charge'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe("restart", () => {
  it("keeps records, idempotency keys and the account's clock", async () => {
    const dir = join(dataDir, "restart");
    const first = await startTestSandbox({ dataDir: dir });
    const key = freshKey();
    const charge = await first.a.post("/v1/charges", { amount: 777, method: "pix" }, { headers: { "Idempotency-Key": key } });
    const customer = await first.b.post("/api/v1/sdk/customers", customerBody());
    const boleto = await first.b.post("/_sandbox/boletos", { status: "REGISTERED" });
    await first.b.delete(`/api/sdk/customers/${customer.json.data.id}`);
    await first.a.post("/_sandbox/clock/advance", { seconds: 120 });
    expectAllConformant(first);
    await first.close();

    const second = await startTestSandbox({ dataDir: dir });
    try {
      expect((await second.a.get(`/v1/charges/${charge.json.id}`)).json).toEqual(charge.json);
      const replay = await second.a.post("/v1/charges", { amount: 777, method: "pix" }, { headers: { "Idempotency-Key": key } });
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.json.id).toBe(charge.json.id);
      expect((await second.b.get(`/api/v1/sdk/customers/${customer.json.data.id}`)).json.data.status).toBe("DELETED");
      expect((await second.b.get(`/sdk/boleto/${boleto.json.data.transactionId}`)).json.data).toEqual(boleto.json.data);
      expect((await second.a.get("/_sandbox/clock")).json.offsetSeconds).toBe(120);
      expectAllConformant(second);
    } finally {
      await second.close();
    }
  });
});

/** Starts the CLI as a child process and reads its JSON banner. */
async function spawnCli(dir: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(ROOT, "src/cli.ts"), "--port", "0", "--data-dir", dir, "--plan", "generous", "--json"],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout! });
  const banner = await new Promise<{ url: string; keys: { familyA: { primary: string } } }>((resolveBanner, reject) => {
    child.once("exit", (code) => reject(new Error(`the sandbox CLI exited with ${code}`)));
    lines.once("line", (line) => resolveBanner(JSON.parse(line)));
  });
  child.removeAllListeners("exit");
  return { child, ...banner };
}

describe("kill -9", () => {
  it("keeps every charge whose creation was acknowledged", async () => {
    const dir = join(dataDir, "kill");
    const { child, url, keys } = await spawnCli(dir);
    const exited = new Promise<NodeJS.Signals | null>((done) => child.once("exit", (_code, signal) => done(signal)));
    const acknowledged = new Map<string, string>();
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await fetch(`${url}/v1/charges`, {
            method: "POST",
            headers: { "x-api-key": keys.familyA.primary, "idempotency-key": `kill-${w}-${i}`, "content-type": "application/json" },
            body: JSON.stringify({ amount: 100 + i, method: "pix", reference: `w${w}-${i}` }),
          });
          const text = await res.text();
          if (res.status === 201) acknowledged.set(JSON.parse(text).id, text);
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    // Kill in the middle of the load, once a good number of writes were acknowledged.
    while (acknowledged.size < 300) await new Promise((r) => setTimeout(r, 5));
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    stop = true;
    await Promise.all(workers);

    const restarted = await startTestSandbox({ dataDir: dir });
    try {
      for (const [id, body] of acknowledged) {
        const res = await restarted.a.get(`/v1/charges/${id}`);
        expect(res.status, id).toBe(200);
        expect(res.json).toEqual(JSON.parse(body));
      }
      expectAllConformant(restarted);
    } finally {
      await restarted.close();
    }
    expect(countCharges(dir)).toBeGreaterThanOrEqual(acknowledged.size);
    console.log(`kill -9: ${acknowledged.size} acknowledged charges before SIGKILL, all present after restart; ${countCharges(dir)} stored`);
  });
});
