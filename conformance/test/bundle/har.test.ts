/**
 * The bundle's exchanges.har: a request that got no answer is an entry all the same (status 0,
 * as HAR records one, with why), so that the check that sent it is backed by what went out.
 */
import { describe, expect, it } from "vitest";
import { bundleEntries, harText } from "../../src/bundle/har.ts";
import type { RecordedExchange } from "../../src/bundle/recorder.ts";
import { Redactor } from "../../src/bundle/secrets.ts";

const KEY = "sk_test_0123456789abcdefghijklmn";

describe("exchanges.har", () => {
  it("holds a request that got no answer as status 0 with its reason, tagged with its check, secrets redacted", () => {
    const unanswered: RecordedExchange = {
      phase: 1, seq: 1, startedAt: 0, endedAt: 30_000, direction: "sent", checkId: "family-a/createCharge/201/new-key",
      method: "POST", url: "http://127.0.0.1:4010/v1/charges", requestHeaders: { "x-api-key": KEY }, requestBody: "{}",
      status: 0, responseHeaders: {}, responseBody: "", error: `POST /v1/charges: no answer within 30 s (${KEY})`,
    };
    const text = harText([unanswered], new Set(["family-a/createCharge/201/new-key"]), new Redactor([KEY]), { name: "test", version: "0" });
    expect(text).not.toContain(KEY);
    const entry = JSON.parse(text).log.entries[0];
    expect(entry.response).toMatchObject({ status: 0, statusText: "" });
    expect(entry._error).toMatch(/^POST \/v1\/charges: no answer within 30 s \(key#[0-9a-f]{8}\)$/);
    const [read] = bundleEntries(text);
    expect(read).toMatchObject({ checks: ["family-a/createCharge/201/new-key"], exchange: { method: "POST", noResponse: true } });
  });
});
