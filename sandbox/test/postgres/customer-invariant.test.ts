/**
 * The customer invariant across concurrent requests on PostgreSQL: a PENDING or PROCESSING
 * transaction never names a deleted customer. The status control checks the customer and
 * writes the transaction in one transaction (the customer read FOR SHARE), so a customer delete
 * cannot slip between the check and the write. The interleaving is forced: a test connection
 * holds the transaction's row lock while the control is sent, the customer is deleted while
 * the control waits, then the lock is released.
 */
import pg from "pg";
import { afterEach, expect, it } from "vitest";
import { customerBody, freshKey, startTestSandbox } from "../support.ts";
import { freshSchema, pgDescribe } from "./support.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Resolves once some backend waits for a lock `holderPid` holds. */
async function someoneWaitsOn(client: pg.Client, holderPid: number): Promise<void> {
  for (let poll = 0; poll < 400; poll++) {
    const { rows } = await client.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", [holderPid]);
    if (rows[0].n > 0) return;
    await new Promise((done) => setTimeout(done, 25));
  }
  throw new Error("the status control never waited for the held row lock");
}

pgDescribe("the customer invariant on PostgreSQL", () => {
  it("a customer deleted while the status control waits: the control answers 409 and the transaction stays settled", async () => {
    const schema = await freshSchema();
    cleanups.push(schema.drop);
    const t = await startTestSandbox({ store: schema.url });
    cleanups.push(t.close);
    const customer = await t.b.post("/api/v1/sdk/customers", customerBody("52998224725"));
    expect(customer.status).toBe(201);
    const customerId = customer.json.data.id as string;
    const transaction = await t.b.post("/transactions", { amount: 10, customerId }, { headers: { "X-Idempotency-Key": freshKey() } });
    expect(transaction.status).toBe(201);
    const id = transaction.json.data.id as string;
    expect((await t.b.post(`/_sandbox/transactions/${id}/status`, { status: "COMPLETED" })).status).toBe(200);

    const holder = new pg.Client({ connectionString: schema.url });
    await holder.connect();
    cleanups.push(() => holder.end());
    const watcher = new pg.Client({ connectionString: schema.url });
    await watcher.connect();
    cleanups.push(() => watcher.end());
    const holderPid = (await holder.query("SELECT pg_backend_pid() AS pid")).rows[0].pid as number;
    await holder.query("BEGIN");
    await holder.query("SELECT 1 FROM records WHERE kind = 'transaction' AND id = $1 FOR UPDATE", [id]);

    const reopening = t.b.post(`/_sandbox/transactions/${id}/status`, { status: "PENDING" });
    await someoneWaitsOn(watcher, holderPid);
    // No open transaction names the customer yet: the delete goes through.
    expect((await t.b.delete(`/api/sdk/customers/${customerId}`)).status).toBe(200);
    await holder.query("ROLLBACK");

    const reopened = await reopening;
    expect(reopened.status).toBe(409);
    expect(reopened.json).toMatchObject({ success: false, error: { code: "INVALID_STATE" } });
    expect((await t.b.get(`/transactions/${id}`)).json.data.status).toBe("COMPLETED");
    expect((await t.b.get(`/api/v1/sdk/customers/${customerId}`)).json.data.status).toBe("DELETED");
  });
});
