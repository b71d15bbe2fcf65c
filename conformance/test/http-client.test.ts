/**
 * The suites' HTTP client meets a server as fetch did: the same request headers on the wire, the
 * same decoded body and headers read back, no redirect followed, and a request that gets no
 * answer reported with why.
 */
import { execFile } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { connectionProblem } from "../src/core/connection-problem.ts";
import { sendHttp } from "../src/core/http-client.ts";

const servers: Array<{ close(): void; closeAllConnections(): void }> = [];
afterEach(() =>
  servers.splice(0).forEach((server) => {
    server.closeAllConnections();
    server.close();
  }),
);

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A server that answers with the request's method and raw headers, as pairs. */
const echo = () =>
  serve((request, response) => {
    const pairs: string[][] = [];
    for (let i = 0; i < request.rawHeaders.length; i += 2) pairs.push([request.rawHeaders[i]!, request.rawHeaders[i + 1]!]);
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ method: request.method, pairs }));
  });

const sent = async (request: Parameters<typeof sendHttp>[0]) => JSON.parse(new TextDecoder().decode((await sendHttp(request, 5_000)).bytes)) as { method: string; pairs: string[][] };

describe("the suites' HTTP client, what a server receives", () => {
  it("adds fetch's default headers only where the request has none of the name, whatever its case", async () => {
    const url = await echo();
    const bare = await sent({ method: "GET", url, headers: {} });
    expect(bare.pairs.filter(([name]) => !["host", "connection"].includes(name!.toLowerCase()))).toEqual([
      ["accept", "*/*"],
      ["accept-language", "*"],
      ["sec-fetch-mode", "cors"],
      ["user-agent", "node"],
      ["accept-encoding", "gzip, deflate"],
    ]);
    const own = await sent({ method: "GET", url, headers: { Accept: "application/json", "User-Agent": "client/1" } });
    expect(own.pairs.filter(([name]) => ["accept", "user-agent"].includes(name!.toLowerCase()))).toEqual([
      ["Accept", "application/json"],
      ["User-Agent", "client/1"],
    ]);
  });

  it("sends names that differ only in case as one header, values joined in order and trimmed, and capitalises the methods fetch does", async () => {
    const url = await echo();
    const answer = await sent({ method: "delete", url, headers: { "user-agent": "suite ", "User-Agent": " uuu" } });
    expect(answer.method).toBe("DELETE");
    expect(answer.pairs.filter(([name]) => name!.toLowerCase() === "user-agent")).toEqual([["user-agent", "suite, uuu"]]);
  });

  it("sends a body without a Content-Type without one (fetch would have named a text body text/plain)", async () => {
    const answer = await sent({ method: "POST", url: await echo(), headers: {}, body: "not json" });
    expect(answer.pairs.filter(([name]) => name!.toLowerCase() === "content-type")).toEqual([]);
  });

    it("refuses a body on GET, as fetch does", async () => {
    await expect(sendHttp({ method: "GET", url: await echo(), headers: {}, body: "{}" })).rejects.toThrow(TypeError);
  });
});

describe("the suites' HTTP client, what a check reads", () => {
  it("decodes gzip, deflate (with or without its zlib wrapper) and br, keeping Content-Encoding", async () => {
    const text = JSON.stringify({ message: "olá" });
    const encoders: Record<string, (b: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, "deflate-raw": deflateRawSync, br: brotliCompressSync };
    const url = await serve((request, response) => {
      const name = request.url!.slice(1);
      response.writeHead(200, { "content-type": "application/json", "content-encoding": name === "deflate-raw" ? "deflate" : name });
      response.end(encoders[name]!(Buffer.from(text)));
    });
    for (const name of Object.keys(encoders)) {
      const answer = await sendHttp({ method: "GET", url: `${url}/${name}`, headers: {} });
      expect(new TextDecoder().decode(answer.bytes), name).toBe(text);
      expect(answer.headers["content-encoding"]).toBe(name === "deflate-raw" ? "deflate" : name);
    }
  });

  it("gives header names in lower case and alphabetical order, a repeated header's values joined", async () => {
    const url = await serve((_request, response) => {
      response.setHeader("X-Zeta", "1");
      response.setHeader("Vary", ["Origin", "Accept"]);
      response.setHeader("Content-Type", "text/plain");
      response.end("ok");
    });
    const answer = await sendHttp({ method: "GET", url, headers: {} });
    const names = Object.keys(answer.headers);
    expect(names).toEqual([...names].sort());
    expect(answer.headers).toMatchObject({ "content-type": "text/plain", vary: "Origin, Accept", "x-zeta": "1" });
  });

  it("returns a redirect as it came, without following it", async () => {
    const url = await serve((_request, response) => {
      response.writeHead(302, { location: "/elsewhere" });
      response.end();
    });
    const answer = await sendHttp({ method: "GET", url, headers: {} });
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe("/elsewhere");
  });

  it("reports a request with no answer in time, and a refused connection, in words", async () => {
    const silent = await serve(() => undefined);
    const late = await sendHttp({ method: "GET", url: silent, headers: {} }, 1_000).catch((error: unknown) => error);
    expect(connectionProblem(late, 1_000)).toBe("no answer within 1 s");
    const closed = await serve(() => undefined);
    servers.pop()!.close();
    const refused = await sendHttp({ method: "GET", url: closed, headers: {} }, 1_000).catch((error: unknown) => error);
    expect(connectionProblem(refused)).toBe("connection refused");
  });
});

describe("the suites' HTTP client, in a process that also uses fetch", () => {
  it("leaves Node's fetch its own dispatcher: a fetch that sets its Content-Length goes through after the client loaded", async () => {
    const url = await serve((request, response) => {
      let length = 0;
      request.on("data", (chunk: Buffer) => (length += chunk.length));
      request.on("end", () => response.end(`received ${length} bytes`));
    });
    // A process of its own: in this one Node's fetch may have loaded before the client.
    const client = new URL("../src/core/http-client.ts", import.meta.url).href;
    const script = `await import(${JSON.stringify(client)});
const answer = await fetch(${JSON.stringify(url)}, { method: "POST", body: "hello", headers: { "content-length": "5" } });
console.log(answer.status, await answer.text());`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { timeout: 30_000 });
    expect(stdout.trim()).toBe("200 received 5 bytes");
  });
});
