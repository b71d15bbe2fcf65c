/**
 * The request of a direct call (direct-call.ts): URL, method, a string body and the headers
 * as a plain record with lower-case names, ready to be handed to fetch.
 *
 * Why not a ClientRequest: that one keeps its headers in a real `Headers` (middleware may
 * read and change them) and copies them into a record at sending time. A direct call runs
 * no middleware, so it builds the record once and skips both steps.
 */
import type { HeaderAccess, RequestLike } from "./client-request.ts";

/** Header access over a record whose names are already lower-case (what `Headers` would hold). */
export class RecordHeaders implements HeaderAccess {
  constructor(readonly record: Record<string, string>) {}

  get(name: string): string | null {
    const value = this.record[name.toLowerCase()];
    return value === undefined ? null : value;
  }

  has(name: string): boolean {
    return this.record[name.toLowerCase()] !== undefined;
  }

  set(name: string, value: string): void {
    this.record[name.toLowerCase()] = value;
  }
}

export class PlainRequest implements RequestLike {
  readonly headers: RecordHeaders;

  constructor(
    readonly url: string,
    readonly method: string,
    headers: Record<string, string>,
    /** Serialised JSON, or null: a string can be sent again on a retry as it is. */
    readonly body: string | null,
    readonly signal: AbortSignal | null,
  ) {
    this.headers = new RecordHeaders(headers);
  }

  /** Same body (a string), own copy of the headers. */
  clone(): PlainRequest {
    return new PlainRequest(this.url, this.method, { ...this.headers.record }, this.body, this.signal);
  }

  /**
   * The fetch init, shaped like ClientRequest's: the method, a fresh header record (a custom
   * fetch that changes it cannot change the next attempt), body and signal when there are.
   */
  toInit(): RequestInit {
    const init: RequestInit = { method: this.method, headers: { ...this.headers.record } };
    if (this.body !== null) init.body = this.body;
    if (this.signal !== null) init.signal = this.signal;
    return init;
  }
}
