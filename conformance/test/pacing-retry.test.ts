/**
 * The pacer and a connection the server closes under a request: a safe request (GET) is sent
 * once more on a new connection, as careful clients do; a creation is not sent twice.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Pacer, type WireExchange } from "../src/core/pacing.ts";

const servers: Array<{ close(): void }> = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** A server that resets the connection of its first request and answers the others 200. */
async function resettingOnce(): Promise<{ url: string; seen: () => number }> {
  let seen = 0;
  const server = createServer((request, response) => {
    seen += 1;
    if (seen === 1) return request.socket.destroy();
    response.writeHead(200, { "content-type": "application/json" });
    response.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen: () => seen };
}

describe("Pacer on a connection closed under a request", () => {
  it("sends a GET once more and returns its answer", async () => {
    const server = await resettingOnce();
    const response = await new Pacer().send({ method: "GET", url: server.url, headers: {} });
    expect(response.status).toBe(200);
    expect(server.seen()).toBe(2);
  });

  it("does not send a POST again: the failure is reported, and the request recorded with no answer", async () => {
    const server = await resettingOnce();
    const recorded: WireExchange[] = [];
    const pacer = new Pacer({ onExchange: (exchange) => recorded.push(exchange) });
    await expect(pacer.send({ method: "POST", url: server.url, headers: {}, body: "{}", checkId: "family-a/createCharge/201/new-key" })).rejects.toThrow(/^POST \/: connection/);
    expect(server.seen()).toBe(1);
    // It went out: a bundle's recording holds it, as HAR holds a request without a response (status 0).
    expect(recorded).toEqual([expect.objectContaining({ seq: 1, method: "POST", requestBody: "{}", checkId: "family-a/createCharge/201/new-key", status: 0, error: expect.stringMatching(/^POST \/: connection/) })]);
  });
});
