/**
 * The pacing figures of the report: the requests the server admitted per bucket, and the
 * least time the limits allow for them (the floor printed beside the run's time).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { Pacer } from "../src/core/pacing.ts";
import { pacingFloor } from "../src/core/pacing-floor.ts";

describe("pacingFloor", () => {
  it("is zero when every bucket's requests fit in one window of each limit", () => {
    expect(pacingFloor([{ bucket: "a", requests: 100, byLimit: { "30": 30, "100": 70 } }], 100, 60).seconds).toBe(0);
  });

  it("counts the renewals the busiest limit needs: 250 requests at 100 per minute wait two windows", () => {
    const floor = pacingFloor([{ bucket: "a", requests: 250, byLimit: {} }, { bucket: "b", requests: 120, byLimit: {} }], 100, 60);
    expect(floor).toEqual({ seconds: 120, bucket: "a", limit: 100, requests: 250 });
  });

  it("holds a specific limit to its own figure, in the declared window", () => {
    const floor = pacingFloor([{ bucket: "a", requests: 90, byLimit: { "30": 61 } }], 100, 5);
    expect(floor).toEqual({ seconds: 10, bucket: "a", limit: 30, requests: 61 });
  });
});

describe("Pacer.usage", () => {
  it("counts the requests the server admitted per bucket and reported limit, not its 429s", async () => {
    let served = 0;
    const server = createServer((_request, response) => {
      served += 1;
      const refused = served === 3;
      response.writeHead(refused ? 429 : 200, { "x-ratelimit-limit": served === 1 ? "30" : "100", "x-ratelimit-remaining": "5", "x-ratelimit-reset": "30", ...(refused ? { "retry-after": "1" } : {}) });
      response.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const pacer = new Pacer();
      for (let i = 0; i < 3; i += 1) await pacer.send({ method: "GET", url, headers: {}, bucket: "account", expectRateLimited: true });
      await pacer.send({ method: "GET", url, headers: {} });
      expect(pacer.usage()).toEqual([{ bucket: "account", requests: 2, byLimit: { "30": 1, "100": 1 } }]);
    } finally {
      server.close();
    }
  });
});
