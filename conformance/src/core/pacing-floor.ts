/**
 * The least time a run's requests allow: on each bucket (account), the requests the server
 * admitted must fit in windows of each limit's figure, so a bucket that needs k windows of one
 * limit spans at least k - 1 renewals, whatever the order of the requests. The longest of these
 * is the floor the report prints beside the run's time: on a server whose windows start with an
 * account's first request, a run shorter than it would break a limit, and the waiting it needs
 * is what its requests cannot fill of it. Where windows align to the clock (the sandbox's), the
 * first window is partly over when the run starts, and the run may be up to a window shorter.
 *
 * A lower bound: a request counts against the specific limit (PIX, transactions, queries) only
 * when its response reported that limit, and two buckets the target names apart may be one
 * account on the server.
 */
import type { BucketUsage } from "./pacing.ts";

export interface PacingFloor {
  /** Seconds the requests must span at least (windows that start with the first request). */
  seconds: number;
  /** The bucket and limit that set it, when it is above zero. */
  bucket?: string;
  limit?: number;
  requests?: number;
}

export function pacingFloor(usage: readonly BucketUsage[], generalLimit: number, windowSeconds: number): PacingFloor {
  let floor: PacingFloor = { seconds: 0 };
  for (const bucket of usage) {
    const specific = Object.entries(bucket.byLimit)
      .map(([limit, requests]) => [Number(limit), requests] as const)
      .filter(([limit]) => limit < generalLimit);
    for (const [limit, requests] of [[generalLimit, bucket.requests] as const, ...specific]) {
      const seconds = (Math.ceil(requests / limit) - 1) * windowSeconds;
      if (seconds > floor.seconds) floor = { seconds, bucket: bucket.bucket, limit, requests };
    }
  }
  return floor;
}
