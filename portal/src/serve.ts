/**
 * Serves a built portal read-only over HTTP (node:http, no dependency): the files of one
 * folder, with a few paths answered from memory instead (the console's configuration, which
 * names the server `payment-collection portal` started).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".yaml": "application/yaml",
  ".txt": "text/plain; charset=utf-8",
};

export interface StaticServer {
  /** `http://host:port`, the origin the pages are served from. */
  origin: string;
  port: number;
  /** Answers `path` (e.g. `/assets/console-config.js`) with this text instead of the file. */
  override(path: string, text: string): void;
  close(): Promise<void>;
}

/** Serves `dir` on `host` (default 127.0.0.1) at `port` (default 0: a free port). */
export async function serveStatic(dir: string, options: { host?: string; port?: number } = {}): Promise<StaticServer> {
  const base = resolve(dir);
  const overrides = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    } catch {
      response.writeHead(400, { "content-type": "text/plain" }).end("bad path");
      return;
    }
    const override = overrides.get(pathname);
    if (override !== undefined) {
      response.writeHead(200, { "content-type": CONTENT_TYPES[extname(pathname)] ?? "text/plain", "cache-control": "no-store" });
      response.end(override);
      return;
    }
    let file = normalize(join(base, pathname));
    if (file !== base && !file.startsWith(base + sep)) {
      response.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!existsSync(file)) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    response.writeHead(200, { "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream" });
    response.end(readFileSync(file));
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", fail);
      done();
    });
  });
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the static server has no port");
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    origin: `http://${urlHost}:${address.port}`,
    port: address.port,
    override: (path, text) => void overrides.set(path, text),
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
