/**
 * `verifyWebhook` (decisions D24, D25), built on the Standard Webhooks reference library
 * (`standardwebhooks`): what the library signs, the helper accepts, and the helper's
 * signature is the library's; the caller's tolerance and clock apply where the library has
 * none; every failed check throws its own error class.
 */
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Webhook } from "standardwebhooks";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  signWebhook,
  verifyWebhook,
  WebhookHeadersError,
  WebhookPayloadError,
  WebhookSignatureError,
  WebhookTimestampError,
  WebhookVerificationError,
  type WebhookEvent,
} from "../src/index.ts";
import { responseExample } from "./support/contract-examples.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const OTHER_SECRET = "whsec_00De5bDAp3kzEKZ9sfzBBV2iJuRFOgKi";

/** A charge.paid body built from the contract's own charge example. */
function chargePaidBody(): string {
  const charge = responseExample("family-a", "getCharge", 200) as Record<string, unknown>;
  return JSON.stringify({ type: "charge.paid", timestamp: "2026-11-21T12:00:00.000Z", data: { ...charge, status: "paid" } });
}

/** Headers of a delivery signed by the reference library. */
function signedByLibrary(body: string, secret = SECRET, at = new Date(), id = "msg_01M7Z876J0R2V6X9K3T5N0B1C7") {
  return { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": new Webhook(secret).sign(id, at, body) };
}

describe("verifyWebhook", () => {
  it("accepts what the reference library signs and returns the typed event", async () => {
    const body = chargePaidBody();
    const event = await verifyWebhook(body, signedByLibrary(body), SECRET);
    expect(event).toEqual(JSON.parse(body));
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    if (event.type === "charge.paid") expectTypeOf(event.data.amount).toEqualTypeOf<number>();
  });

  it("signs exactly as the reference library does", async () => {
    const body = chargePaidBody();
    const at = new Date();
    const headers = signedByLibrary(body, SECRET, at);
    const ours = await signWebhook(SECRET, headers["webhook-id"], Math.floor(at.getTime() / 1000), body);
    expect(`v1,${ours}`).toBe(headers["webhook-signature"]);
    expect(() => new Webhook(SECRET).verify(body, { ...headers, "webhook-signature": `v1,${ours}` })).not.toThrow();
  });

  it("takes a fetch Headers object, Node's header object and the body as bytes", async () => {
    const body = chargePaidBody();
    const headers = signedByLibrary(body);
    await expect(verifyWebhook(new TextEncoder().encode(body), new Headers(headers), SECRET)).resolves.toMatchObject({ type: "charge.paid" });
    const nodeStyle = { "Webhook-Id": headers["webhook-id"], "webhook-timestamp": [headers["webhook-timestamp"]], "webhook-signature": headers["webhook-signature"] };
    await expect(verifyWebhook(body, nodeStyle, SECRET)).resolves.toMatchObject({ type: "charge.paid" });
  });

  it("accepts a delivery signed with two secrets during a rotation when either is the receiver's", async () => {
    const body = chargePaidBody();
    const at = new Date();
    const headers = signedByLibrary(body, SECRET, at);
    const both = { ...headers, "webhook-signature": `${new Webhook(OTHER_SECRET).sign(headers["webhook-id"], at, body)} ${headers["webhook-signature"]}` };
    await expect(verifyWebhook(body, both, SECRET)).resolves.toBeDefined();
    await expect(verifyWebhook(body, both, OTHER_SECRET)).resolves.toBeDefined();
  });

  it("refuses another secret, an altered body, id or timestamp with WebhookSignatureError", async () => {
    const body = chargePaidBody();
    const headers = signedByLibrary(body);
    const refusals = [
      verifyWebhook(body, headers, OTHER_SECRET),
      verifyWebhook(body.replace('"paid"', '"pending"'), headers, SECRET),
      verifyWebhook(body, { ...headers, "webhook-id": "msg_other" }, SECRET),
      verifyWebhook(body, { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) - 1) }, SECRET),
      verifyWebhook(body, { ...headers, "webhook-signature": headers["webhook-signature"].replace("v1,", "v2,") }, SECRET),
    ];
    for (const refusal of refusals) {
      const error = await refusal.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookSignatureError);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect((error as WebhookVerificationError).kind).toBe("bad-signature");
    }
  });

  it("refuses a timestamp outside the tolerance, in the past or the future, with WebhookTimestampError", async () => {
    const body = chargePaidBody();
    const headers = signedByLibrary(body);
    const sent = Number(headers["webhook-timestamp"]) * 1000;
    await expect(verifyWebhook(body, headers, SECRET, { now: () => sent + 301_000 })).rejects.toBeInstanceOf(WebhookTimestampError);
    await expect(verifyWebhook(body, headers, SECRET, { now: () => sent - 301_000 })).rejects.toBeInstanceOf(WebhookTimestampError);
    await expect(verifyWebhook(body, headers, SECRET, { now: () => sent + 299_000 })).resolves.toBeDefined();
    await expect(verifyWebhook(body, headers, SECRET, { now: () => sent + 30_000, toleranceSeconds: 10 })).rejects.toMatchObject({
      kind: "timestamp-out-of-tolerance",
      toleranceSeconds: 10,
    });
  });

  it("applies the caller's tolerance and clock, also beyond the reference library's fixed 5 minutes", async () => {
    const body = chargePaidBody();
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    const old = signedByLibrary(body, SECRET, tenMinutesAgo);
    expect(() => new Webhook(SECRET).verify(body, old)).toThrow(/too old/);
    await expect(verifyWebhook(body, old, SECRET, { toleranceSeconds: 900 })).resolves.toEqual(JSON.parse(body));
    await expect(verifyWebhook(body, old, SECRET, { now: () => tenMinutesAgo.getTime() })).resolves.toEqual(JSON.parse(body));
    // Out of the library's window, a wrong secret or an altered body is still refused.
    await expect(verifyWebhook(body, old, OTHER_SECRET, { toleranceSeconds: 900 })).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(verifyWebhook(body.replace('"paid"', '"pending"'), old, SECRET, { toleranceSeconds: 900 })).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it("refuses a secret that is not whsec_ and base64 with a TypeError", async () => {
    const body = chargePaidBody();
    await expect(verifyWebhook(body, signedByLibrary(body), "whsec_not*base64")).rejects.toBeInstanceOf(TypeError);
    await expect(signWebhook("", "msg_1", 1, body)).rejects.toBeInstanceOf(TypeError);
  });

  it("refuses missing or malformed headers with WebhookHeadersError", async () => {
    const body = chargePaidBody();
    const { "webhook-signature": _signature, ...unsigned } = signedByLibrary(body);
    await expect(verifyWebhook(body, unsigned, SECRET)).rejects.toBeInstanceOf(WebhookHeadersError);
    await expect(verifyWebhook(body, { ...signedByLibrary(body), "webhook-timestamp": "soon" }, SECRET)).rejects.toBeInstanceOf(WebhookHeadersError);
  });

  it("refuses a correctly signed body that is not an event with WebhookPayloadError", async () => {
    for (const body of ["not json", JSON.stringify({ hello: "world" })]) {
      await expect(verifyWebhook(body, signedByLibrary(body), SECRET)).rejects.toBeInstanceOf(WebhookPayloadError);
    }
  });
});

/** Module specifiers a JavaScript or TypeScript source loads (import, export from, require, import()). */
function specifiersOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)) found.push(match[1]!);
  return found;
}

const isBuiltin = (specifier: string) => specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0]!);

describe("the client in browsers", () => {
  // The library's typings reference Node's types, so the DOM-only compile of the client
  // (tsconfig.build.json) no longer stops a Node-only import by itself: this test does.
  it("loads no Node built-in module, from its own sources or through the reference library", () => {
    const clientDir = fileURLToPath(new URL("../src", import.meta.url));
    const reached: string[] = [];
    for (const file of readdirSync(clientDir).filter((name) => name.endsWith(".ts"))) {
      for (const specifier of specifiersOf(readFileSync(join(clientDir, file), "utf8"))) if (isBuiltin(specifier)) reached.push(`client/src/${file}: ${specifier}`);
    }
    const require = createRequire(join(clientDir, "webhooks.ts"));
    const pending = [require.resolve("standardwebhooks")];
    const seen = new Set<string>();
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const load = createRequire(file);
      for (const specifier of specifiersOf(readFileSync(file, "utf8"))) {
        if (isBuiltin(specifier)) reached.push(`${file}: ${specifier}`);
        else pending.push(load.resolve(specifier));
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(4); // the library, its timing-safe comparison, base64, SHA-256
    expect(reached).toEqual([]);
  });
});
