/**
 * The answer to a request the pipeline failed on (src/http/failure.ts, out of mutation testing:
 * no request reaches it on the SQLite store): a store that cannot be reached gets 503 with
 * Retry-After (D42), a bug 500, each in the error body of the request's path, and an answer
 * already begun ends with its connection dropped, never a hang.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it, vi } from "vitest";
import { answerFailure } from "../src/http/failure.ts";
import { StoreUnavailableError } from "../src/store/types.ts";

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A server that fails every request with `error`, after writing its head when `begun`. */
async function failingWith(error: unknown, begun = false): Promise<string> {
  server = createServer((req, res) => {
    if (begun) res.writeHead(200, { "Content-Type": "application/json" }).write("{");
    answerFailure(error, req, res);
  });
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

it("answers a store that cannot be reached with 503 and Retry-After, in the family's error body", async () => {
  const url = await failingWith(new StoreUnavailableError("connection refused", 3));
  const a = await fetch(`${url}/v1/charges?x=1`);
  expect(a.status).toBe(503);
  expect(a.headers.get("retry-after")).toBe("3");
  expect(a.headers.get("content-type")).toBe("application/problem+json");
  expect(await a.json()).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE" });
  const b = await fetch(`${url}/pix`);
  expect(b.status).toBe(503);
  expect(b.headers.get("retry-after")).toBe("3");
  expect(await b.json()).toMatchObject({ success: false, error: { code: "SERVICE_UNAVAILABLE" } });
});

it("answers a bug with 500 in the family's error body", async () => {
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  const url = await failingWith(new TypeError("a bug"));
  const a = await fetch(`${url}/v1/merchant`);
  expect(a.status).toBe(500);
  expect(await a.json()).toMatchObject({ status: 500, code: "INTERNAL_ERROR" });
  const b = await fetch(`${url}/transactions`);
  expect(b.status).toBe(500);
  expect(await b.json()).toMatchObject({ success: false, error: { code: "INTERNAL_ERROR" } });
  expect(logged).toHaveBeenCalledTimes(2);
  logged.mockRestore();
});

it("drops the connection of an answer already begun", async () => {
  const url = await failingWith(new TypeError("a bug"), true);
  await expect(fetch(`${url}/v1/merchant`).then((res) => res.text())).rejects.toThrow();
});
