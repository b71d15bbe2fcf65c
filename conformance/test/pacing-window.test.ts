/**
 * What the pacer knows of an account's window: the rate-limit checks ask it whether another
 * account's own requests have used up its limit before blaming a 429 on the account they used up.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Pacer } from "../src/core/pacing.ts";

const servers: Array<{ close(): void }> = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** A server with a limit of 3 requests per window, counted per X-API-Key, the window renewing in a minute. */
async function limitedPerKey(): Promise<string> {
  const used = new Map<string, number>();
  const reset = Math.ceil(Date.now() / 1000) + 60;
  const server = createServer((request, response) => {
    const key = String(request.headers["x-api-key"]);
    const count = (used.get(key) ?? 0) + 1;
    used.set(key, count);
    response.writeHead(count > 3 ? 429 : 200, { "content-type": "application/json", "x-ratelimit-limit": "3", "x-ratelimit-remaining": String(Math.max(0, 3 - count)), "x-ratelimit-reset": String(reset) });
    response.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe("Pacer.knownWindow", () => {
  it("tells the requests an account has left and when its window renews, and nothing of an account it has not heard of", async () => {
    const url = await limitedPerKey();
    const pacer = new Pacer();
    const request = (key: string) => ({ method: "GET", url, headers: { "x-api-key": key }, bucket: key });
    for (let i = 0; i < 3; i++) await pacer.send(request("a"));
    const window = pacer.knownWindow(request("a"));
    expect(window?.remaining).toBe(0);
    expect(window?.resetAt).toBeGreaterThan(Date.now());
    expect(pacer.knownWindow(request("b"))).toBeUndefined();
    await pacer.send(request("b"));
    expect(pacer.knownWindow(request("b"))?.remaining).toBe(2);
  });
});

describe("Pacer.waitUntil", () => {
  it("returns once Date.now() has reached the moment, also when the timer ends before it", async () => {
    vi.useFakeTimers();
    try {
      const pacer = new Pacer();
      const at = Date.now() + 1_000;
      let done = false;
      const waiting = pacer.waitUntil(at, "a Retry-After").then(() => (done = true));
      // The wall clock falls 5 ms behind the clock that times the wait: its timer ends 5 ms early.
      vi.setSystemTime(Date.now() - 5);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(5);
      await waiting;
      expect(Date.now()).toBeGreaterThanOrEqual(at);
    } finally {
      vi.useRealTimers();
    }
  });
});
