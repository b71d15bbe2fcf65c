/** Identifier generators. Random parts come from the operating system's CSPRNG. */
import { randomFillSync, randomUUID } from "node:crypto";

// Random bytes are drawn 4 KiB at a time: one system call serves many identifiers.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomBytes(count: number): Buffer {
  if (poolOffset + count > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + count);
  poolOffset += count;
  return bytes;
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The time part of the last ULID made: under load, many identifiers share one millisecond. */
let lastTimeMs = -1;
let lastTimePart = "";

/** A ULID (26 Crockford base-32 characters: 48-bit time, 80 random bits). */
export function ulid(timeMs: number): string {
  const ms = Math.max(0, Math.floor(timeMs));
  if (ms !== lastTimeMs) {
    let time = "";
    let t = ms;
    for (let i = 0; i < 10; i++) {
      time = CROCKFORD[t % 32] + time;
      t = Math.floor(t / 32);
    }
    lastTimeMs = ms;
    lastTimePart = time;
  }
  const time = lastTimePart;
  const bytes = randomBytes(16);
  let random = "";
  for (let i = 0; i < 16; i++) random += CROCKFORD[bytes[i] % 32];
  return time + random;
}

/** A family A charge id, e.g. `ch_01JDQ7Z8M4R2V6X9K3T5N0B1C7`. */
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
