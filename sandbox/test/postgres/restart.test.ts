/**
 * A real PostgreSQL restarted during traffic, on a private cluster (private-cluster.ts) so that
 * the cluster other test files share is never stopped. `pg_ctl -m fast stop` terminates the
 * sandbox's sessions and refuses new connections; `pg_ctl start` brings it back on the same port.
 * While it is down every request gets 503 with Retry-After in its family's error format (never a
 * 500, never a hang); once it is back the same sandbox instance answers normally, and every
 * charge acknowledged with 201 (before, during or after) is still there.
 *
 * outage.test.ts covers the other fault, a network cut (connections reset by a proxy, with no
 * word from the server), on the shared cluster.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/server.ts";
import { clusterDescribe, startPrivateCluster, type PrivateCluster } from "./private-cluster.ts";
import { startInstances } from "./support.ts";

/** Longer than the store's connect (2 s) and query (5 s) timeouts: a request past it has hung. */
const REQUEST_TIMEOUT_MS = 15_000;

type Phase = "up" | "stopping" | "down" | "starting" | "back";

interface Answer {
  phase: Phase | "between";
  path: string;
  /** 0: no answer (a hang past the timeout, or the connection dropped). */
  status: number;
  retryAfter: string | null;
  contentType: string | null;
  body: string;
  chargeId?: string;
}

const isNormal = (a: Answer) => a.status === 200 || a.status === 201;

/** Polls until `done()` or the bound passes (what was seen is then asserted, not the time). */
async function until(done: () => boolean, boundMs = 20_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The family's 503: problem details under /v1 (family A), envelope 1 under /sdk (family B). */
function expectUnavailable(answer: Answer): void {
  expect(answer.status, `${answer.path} in phase ${answer.phase}: ${answer.body}`).toBe(503);
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
  const body = JSON.parse(answer.body) as { code?: string; status?: number; success?: boolean; error?: { code: string } };
  if (answer.path.startsWith("/v1/")) {
    expect(answer.contentType).toMatch(/^application\/problem\+json/);
    expect(body).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE" });
  } else {
    expect(body).toMatchObject({ success: false, error: { code: "SERVICE_UNAVAILABLE" } });
  }
}

clusterDescribe("PostgreSQL restarted during traffic (a private cluster)", (tools) => {
  let cluster: PrivateCluster | undefined;
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    cluster = await startPrivateCluster(tools);
    [sandbox] = await startInstances(1, cluster.url);
  });
  afterAll(async () => {
    try {
      await sandbox?.close();
    } finally {
      await cluster?.remove();
    }
  });

  it("answers 503 with Retry-After while it is down, then normally, and loses no acknowledged charge", { timeout: 90_000 }, async () => {
    const { url, keys } = sandbox!;
    const keyA = keys.familyA.primary;
    const keyB = keys.familyB.primary;
    let phase: Phase = "up";
    const answers: Answer[] = [];
    let counter = 0;

    const send = async (): Promise<void> => {
      const n = counter++;
      const [path, init]: [string, RequestInit] =
        n % 3 === 0
          ? ["/v1/charges", { method: "POST", headers: { "x-api-key": keyA, "content-type": "application/json", "idempotency-key": `restart-${n}` }, body: JSON.stringify({ amount: 500 + n, method: "pix" }) }]
          : n % 3 === 1
            ? ["/v1/merchant", { headers: { "x-api-key": keyA } }]
            : ["/sdk/status/health", { headers: { "x-api-key": keyB } }];
      const at = phase;
      let answer: Omit<Answer, "phase">;
      try {
        const response = await fetch(url + path, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        const body = await response.text();
        answer = { path, status: response.status, retryAfter: response.headers.get("retry-after"), contentType: response.headers.get("content-type"), body };
        if (path === "/v1/charges" && response.status === 201) answer.chargeId = (JSON.parse(body) as { id: string }).id;
      } catch (error) {
        answer = { path, status: 0, retryAfter: null, contentType: null, body: String(error) };
      }
      // A request that spans a phase change may end either way: it counts only as "between".
      answers.push({ ...answer, phase: at === phase ? at : "between" });
    };
    let stopTraffic = false;
    const worker = async () => {
      while (!stopTraffic) await send();
    };
    const traffic = Promise.all([worker(), worker(), worker()]);
    const count = (p: Phase, which: (a: Answer) => boolean = () => true) => answers.filter((a) => a.phase === p && which(a)).length;

    try {
      await until(() => count("up", isNormal) >= 30);
      phase = "stopping";
      await cluster!.stop();
      phase = "down";
      await until(() => count("down") >= 30);
      phase = "starting";
      await cluster!.start();
      phase = "back";
      await until(() => count("back", isNormal) >= 30);
    } finally {
      stopTraffic = true;
      await traffic;
    }

    const summary = (["up", "stopping", "down", "starting", "back", "between"] as const).map((p) => {
      const byStatus = answers.filter((a) => a.phase === p).reduce<Record<number, number>>((acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }), {});
      return `${p} ${JSON.stringify(byStatus)}`;
    });
    console.log(`restart: ${summary.join(", ")}`);

    // Every answer, in any phase: a normal one or the family's 503; never a 500, never a hang.
    for (const answer of answers.filter((a) => !isNormal(a))) expectUnavailable(answer);
    expect(count("up")).toBeGreaterThan(0);
    expect(count("up", isNormal)).toBe(count("up"));
    // Down: only 503s.
    expect(count("down")).toBeGreaterThan(0);
    expect(count("down", (a) => a.status === 503)).toBe(count("down"));
    // Back, the same instance without a restart: normal answers, and once one is normal all are.
    expect(count("back", isNormal)).toBeGreaterThanOrEqual(30);
    const back = answers.filter((a) => a.phase === "back");
    expect(back.slice(back.findIndex(isNormal)).every(isNormal)).toBe(true);

    // No acknowledged write lost: every charge that got 201 reads back.
    const acknowledged = answers.filter((a) => a.chargeId !== undefined);
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const { chargeId } of acknowledged) {
      const read = await fetch(`${url}/v1/charges/${chargeId}`, { headers: { "x-api-key": keyA }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      expect(read.status, `charge ${chargeId}`).toBe(200);
      expect(((await read.json()) as { id: string }).id).toBe(chargeId);
    }
    const health = await fetch(`${url}/sdk/status/health`, { headers: { "x-api-key": keyB } });
    expect(((await health.json()) as { data: { store: unknown } }).data.store).toMatchObject({ kind: "postgres", status: "ok" });
  });
});
