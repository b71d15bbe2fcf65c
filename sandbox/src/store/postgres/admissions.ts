/**
 * Admissions on the PostgreSQL store: the clock offset of the request's account and its
 * rate-limit charge, for the requests of one event-loop turn in one call of
 * `sandbox_admit_many` (schema.ts): one round trip, one transaction, each bucket read and
 * written once per batch however many requests it admits. Counters stay exact and shared by
 * every instance: the batch locks its buckets in the database, and requests are charged in
 * arrival order as if admitted one by one.
 */
import type { Admission, RateLimitBucket } from "../types.ts";
import { batcher } from "./batcher.ts";
import type { Query } from "./query.ts";

export interface AdmissionRequest {
  accountId: string | undefined;
  windowStartMs: number;
  buckets: readonly RateLimitBucket[];
}

type Answer = {
  o_admitted: boolean[];
  o_counts: number[];
  /** BIGINT[] arrives as text. */
  o_offsets: Array<string | number>;
};

/** An offset a JavaScript Date can add (anything else, which the clock control never stores, counts as none). */
const validOffset = (offset: number) => (Number.isSafeInteger(offset) && !Number.isNaN(new Date(Date.now() + offset).getTime()) ? offset : 0);

export function admissionBatches(query: Query): (request: AdmissionRequest) => Promise<Admission> {
  return batcher<AdmissionRequest, Admission>(async (requests) => {
    // The batch's distinct buckets and accounts, numbered from 1 as the function reads them.
    const keys: string[] = [];
    const keyNumber = new Map<string, number>();
    const accounts: string[] = [];
    const accountNumber = new Map<string, number>();
    const windows: number[] = [];
    const sizes: number[] = [];
    const pairs: number[] = [];
    const limits: number[] = [];
    for (const request of requests) {
      windows.push(request.windowStartMs);
      sizes.push(request.buckets.length);
      for (const bucket of request.buckets) {
        let n = keyNumber.get(bucket.key);
        if (n === undefined) keyNumber.set(bucket.key, (n = keys.push(bucket.key)));
        pairs.push(n);
        limits.push(bucket.limit);
      }
      if (request.accountId !== undefined && !accountNumber.has(request.accountId)) accountNumber.set(request.accountId, accounts.push(request.accountId));
    }
    const { rows } = await query<Answer>("SELECT o_admitted, o_counts, o_offsets FROM sandbox_admit_many($1::text[], $2::bigint[], $3::int[], $4::int[], $5::int[], $6::text[])", [
      keys,
      windows,
      sizes,
      pairs,
      limits,
      accounts,
    ]);
    const answer = rows[0];
    let first = 0;
    return requests.map((request, r) => {
      const counts = answer.o_counts.slice(first, first + sizes[r]);
      first += sizes[r];
      const account = request.accountId === undefined ? undefined : accountNumber.get(request.accountId)!;
      return { offsetMs: account === undefined ? 0 : validOffset(Number(answer.o_offsets[account - 1])), admitted: answer.o_admitted[r], counts };
    });
  });
}
