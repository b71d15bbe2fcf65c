/**
 * The target fingerprint of a bundle names an https server by its TLS certificate: the SHA-256
 * of the certificate it presents, read with a handshake of its own (a self-signed certificate
 * made with openssl for the test).
 */
import { spawnSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { tlsCertificate } from "../../src/bundle/target-fingerprint.ts";

const openssl = spawnSync("openssl", ["version"]).status === 0;

it.skipIf(!openssl)("reads the SHA-256 of the certificate an https server presents, trusted or not", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tls-fingerprint-"));
  try {
    const made = spawnSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj", "/CN=staging.example.com", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")]);
    expect(made.status, made.stderr.toString()).toBe(0);
    const cert = readFileSync(join(dir, "cert.pem"));
    const server = createServer({ cert, key: readFileSync(join(dir, "key.pem")) }, (_, res) => res.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const seen = await tlsCertificate(`https://127.0.0.1:${port}`);
      expect(seen).toEqual({ sha256: new X509Certificate(cert).fingerprint256, subject: "staging.example.com", issuer: "staging.example.com", validTo: expect.any(String), trusted: false });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
