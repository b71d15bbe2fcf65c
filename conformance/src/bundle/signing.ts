/**
 * The bundle's signature: a DSSE envelope (Dead Simple Signing Envelope, v1) over an in-toto
 * Statement, signed with Ed25519 by node:crypto (no network, no service). The key is a PKCS#8
 * PEM file (`openssl genpkey -algorithm ed25519`), or one made for the run. A key is named by
 * its fingerprint: `SHA256:` and the hex SHA-256 of its public key (SubjectPublicKeyInfo, DER).
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";

/** The payload type of an in-toto Statement in a DSSE envelope. */
export const PAYLOAD_TYPE = "application/vnd.in-toto+json";

export interface DsseEnvelope {
  payloadType: string;
  /** Base64 of the payload's bytes. */
  payload: string;
  signatures: Array<{ keyid: string; sig: string }>;
}

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  fingerprint: string;
}

/** A key file that cannot sign a bundle: the line says why. */
export class SigningKeyError extends Error {}

/** The fingerprint of a public key: `SHA256:<hex>`. */
export function signerFingerprint(publicKey: KeyObject): string {
  return `SHA256:${createHash("sha256").update(publicKey.export({ type: "spki", format: "der" })).digest("hex")}`;
}

/** A fingerprint as given on a command line: with or without `SHA256:`, any case. */
export function normaliseFingerprint(text: string): string {
  return `SHA256:${text.trim().replace(/^sha256:/i, "").toLowerCase()}`;
}

export function publicKeyPem(key: SigningKey): string {
  return key.publicKey.export({ type: "spki", format: "pem" }).toString();
}

export function privateKeyPem(key: SigningKey): string {
  return key.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
}

/** A key for one run. */
export function generateSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return { privateKey, publicKey, fingerprint: signerFingerprint(publicKey) };
}

/** Reads an Ed25519 private key; anything else is a SigningKeyError naming the file. */
export function loadSigningKey(file: string): SigningKey {
  let text: Buffer;
  try {
    text = readFileSync(file);
  } catch (error) {
    throw new SigningKeyError(`--signing-key ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(text);
  } catch {
    throw new SigningKeyError(`--signing-key ${file}: not a private key in PEM (PKCS#8) form; make one with: openssl genpkey -algorithm ed25519 -out ${file}`);
  }
  if (privateKey.asymmetricKeyType !== "ed25519") {
    throw new SigningKeyError(`--signing-key ${file}: an ${privateKey.asymmetricKeyType?.toUpperCase() ?? "unknown"} key, not an Ed25519 private key; make one with: openssl genpkey -algorithm ed25519`);
  }
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, fingerprint: signerFingerprint(publicKey) };
}

/** DSSE's pre-authentication encoding: what is signed, so that the type cannot be swapped. */
export function pae(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, "utf8");
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

export function signEnvelope(payload: Buffer, key: SigningKey): DsseEnvelope {
  const sig = sign(null, pae(PAYLOAD_TYPE, payload), key.privateKey);
  return { payloadType: PAYLOAD_TYPE, payload: payload.toString("base64"), signatures: [{ keyid: key.fingerprint, sig: sig.toString("base64") }] };
}

/** Whether a signature of the envelope verifies with the public key. */
export function envelopeVerifies(envelope: DsseEnvelope, signature: { sig: string }, publicKey: KeyObject): boolean {
  try {
    return verify(null, pae(envelope.payloadType, Buffer.from(envelope.payload, "base64")), publicKey, Buffer.from(signature.sig, "base64"));
  } catch {
    return false;
  }
}
