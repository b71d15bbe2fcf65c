/** Checks of the contract's operation extensions: `x-rate-limits` (Limits, issue #16 item 5). */
import { rateLimitsOf } from "../model/index.ts";
import type { OpenApiDocument, RateLimitsCheck } from "./check-types.ts";
import { selectOperations } from "./locate.ts";

const key = (e: { bucket: string; limit: number; window: string }) => `${e.bucket}:${e.limit}/${e.window}`;

export function checkRateLimits(doc: OpenApiDocument, c: RateLimitsCheck): string[] {
  const { ops, problems } = selectOperations(doc, c.operation, c.methods);
  const wanted = c.limits.map(key).sort();
  for (const op of ops) {
    const raw = op.operation["x-rate-limits"];
    const got = rateLimitsOf(op.operation).map(key).sort();
    if (!Array.isArray(raw) || raw.length !== got.length) {
      problems.push(`${op.operationId}: x-rate-limits ${JSON.stringify(raw ?? null)} is missing or malformed ({bucket, limit, window: "minute"})`);
      continue;
    }
    if (c.includes) {
      for (const w of wanted) if (!got.includes(w)) problems.push(`${op.operationId}: x-rate-limits lacks ${w} (has ${got.join(", ")})`);
    } else if (JSON.stringify(got) !== JSON.stringify(wanted)) {
      problems.push(`${op.operationId}: x-rate-limits ${got.join(", ") || "empty"}, expected exactly ${wanted.join(", ")}`);
    }
  }
  return problems;
}
