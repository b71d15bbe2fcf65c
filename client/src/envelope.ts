/** Family B success envelope: `{success, data, timestamp}` (health has no timestamp). */

/** The `data` type inside a success envelope. */
export type EnvelopeData<Body> = Body extends { success: boolean; data: infer Data } ? Data : Body;

/** Returns `data` from a success envelope; a body that is not an envelope is returned as is. */
export function envelopeData<Body>(body: Body): EnvelopeData<Body> {
  if (typeof body === "object" && body !== null && "success" in body && "data" in body) {
    return (body as { data: unknown }).data as EnvelopeData<Body>;
  }
  return body as EnvelopeData<Body>;
}
