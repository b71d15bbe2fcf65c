/** Identifier generators. Random parts come from the operating system's CSPRNG. */
import { randomBytes, randomUUID } from "node:crypto";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A ULID (26 Crockford base-32 characters: 48-bit time, 80 random bits) of a time since 1970. */
export function ulid(timeMs: number): string {
  let time = "";
  for (let t = Math.floor(timeMs), i = 0; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  const bytes = randomBytes(16);
  let random = "";
  for (let i = 0; i < 16; i++) random += CROCKFORD[bytes[i] % 32];
  return time + random;
}

/** A family A charge id, e.g. `ch_01M7Z876J0R2V6X9K3T5N0B1C7`. */
export function chargeId(timeMs: number): string {
  return `ch_${ulid(timeMs)}`;
}

/** 32 lower-case hex characters: a PIX txid (26 to 35 letters and digits) and PIX charge id. */
export function hex32(): string {
  return randomBytes(16).toString("hex");
}

export function uuid(): string {
  return randomUUID();
}

/** `length` random letters and digits. */
export function alphanumeric(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[bytes[i] % ALPHANUMERIC.length];
  return out;
}

/** `length` random decimal digits. */
export function digits(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (let i = 0; i < length; i++) out += String(bytes[i] % 10);
  return out;
}
