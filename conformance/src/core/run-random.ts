/**
 * The values a run makes up (the run id its idempotency keys and made-up keys carry, the ids
 * no record has, the seed of the generated bodies), all drawn from one seed: `--seed N` makes
 * a run send the same requests again against a server in the same state. Without `--seed`, a
 * seed is drawn and reported, so that any run can be made again.
 *
 * Draws are counted per check (check-scope.ts): what one check draws does not depend on how
 * many values the checks before it drew, which a server's answers can change.
 */
import { createHash, randomInt } from "node:crypto";
import { currentCheck } from "./check-scope.ts";

/** Seeds are non-negative 32-bit integers: fast-check takes them as they are. */
export const SEED_MAX = 2 ** 31 - 1;

/** A seed for a run given none. */
export function drawSeed(): number {
  return randomInt(0, SEED_MAX);
}

/** Whether a value can be a seed (`--seed N`). */
export function isSeed(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= SEED_MAX;
}

export class RunRandom {
  private readonly draws = new Map<string, number>();

  constructor(readonly seed: number) {}

  /** A stable token for one named use (a family's run id): the same for a seed, whatever ran before. */
  token(label: string, length = 12): string {
    return createHash("sha256").update(`${this.seed}:${label}`).digest("hex").slice(0, length);
  }

  /** The next 32 bytes of the running check's draws. */
  private draw(kind: string): Buffer {
    const scope = currentCheck() ?? "";
    const n = (this.draws.get(scope) ?? 0) + 1;
    this.draws.set(scope, n);
    return createHash("sha256").update(`${this.seed}:${kind}:${scope}:${n}`).digest();
  }

  /** `count` decimal digits (at most 32). */
  digits(count: number): string {
    return [...this.draw("digits").subarray(0, count)].map((byte) => String(byte % 10)).join("");
  }

  /** A UUID (version 4 form). */
  uuid(): string {
    const bytes = this.draw("uuid").subarray(0, 16);
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.toString("hex");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
