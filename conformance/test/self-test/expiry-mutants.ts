/**
 * Broken servers for a charge's expiry (full profile: the document gives the lifetime no
 * meaning). Family A (D02, D04): a pending charge that never expires, or expires a second late
 * or early; a paid charge that expires; an `expires_at` that ignores the `expires_in` given,
 * takes another default, or is a second off. Family B (D11, D14): a PIX charge never removed or
 * removed a second late, and the same three for `expiresAt` and `expiresIn`. The expiry
 * transition is caught by the scenario that moves the account's clock, the arithmetic by the
 * creation's response checks.
 */
import { editJson, is, requestJson, type Exchange, type Forward, type Mutation, type Reply } from "./mutants.ts";

type Json = Record<string, any>;

const isCreation = (path: string) => (request: Exchange) => request.method === "POST" && request.path === path;
const isChargeCreation = isCreation("/v1/charges");
const isPixCreation = isCreation("/pix");
/** Where a read of a charge keeps its status and its expiry. */
interface ReadShape {
  isRead: (request: Exchange) => boolean;
  record: (body: Json) => Json;
  expiresAt: string;
}
const CHARGE: ReadShape = { isRead: (r) => r.method === "GET" && /^\/v1\/charges\/[^/]+$/.test(r.path), record: (body) => body, expiresAt: "expires_at" };
const PIX_CHARGE: ReadShape = { isRead: (r) => r.method === "GET" && /^\/pix\/[^/]+$/.test(r.path), record: (body) => body.data, expiresAt: "expiresAt" };

/** A request body with the lifetime member dropped, or set where the request gave none. */
function withLifetime(request: Exchange, member: string, change: (given: unknown) => unknown): Exchange {
  const body = requestJson(request);
  if (!body) return request;
  const value = change(body[member]);
  if (value === undefined) delete body[member];
  else body[member] = value;
  return { ...request, body: JSON.stringify(body) };
}

/** A server whose lifetime is read but whose default is an hour, not D02's and D14's 86400 seconds. */
const hourByDefault = (given: unknown) => given ?? 3600;

/** One second later than the creation's answer said. */
const secondLater = (value: string) => new Date(Date.parse(value) + 1000).toISOString();

/**
 * A charge read whose status follows another rule than the decisions': `status` gets the stored
 * status, the account's time (asked of the sandbox's clock, on the read's key) and the charge's
 * expiry.
 */
function readShowing(shape: ReadShape, status: (shown: string, nowMs: number, expiresAtMs: number) => string) {
  return async (request: Exchange, forward: Forward): Promise<Reply> => {
    const reply = await forward(request);
    if (!shape.isRead(request) || reply.status !== 200) return reply;
    const body = JSON.parse(reply.body) as Json;
    const record = shape.record(body);
    const clock = await forward({ method: "GET", path: "/_sandbox/clock", search: "", headers: { "x-api-key": request.headers["x-api-key"] ?? "", accept: "application/json" }, body: "" });
    record.status = status(record.status, Date.parse((JSON.parse(clock.body) as Json).now), Date.parse(record[shape.expiresAt]));
    return { ...reply, body: JSON.stringify(body) };
  };
}

/** An open charge closes once the account's clock is `shiftMs` past its expiry. */
const closingShifted = (shape: ReadShape, open: string, closed: string, shiftMs: number) =>
  readShowing(shape, (shown, now, expiresAt) => (shown === open || shown === closed ? (now >= expiresAt + shiftMs ? closed : open) : shown));

const chargeExpiry = (name: string, breaks: string, shiftMs: number): Mutation => ({
  name,
  statements: ["A-CHARGE-FIELD-expires_at"],
  caughtBy: "family-a/charges/expired-at-expires-at",
  breaks,
  family: "family-a",
  profile: "full",
  handle: closingShifted(CHARGE, "pending", "expired", shiftMs),
});

const pixExpiry = (name: string, breaks: string, shiftMs: number): Mutation => ({
  name,
  statements: ["B-PIX-ENDPOINT-get"],
  caughtBy: "family-b/pix/removed-at-expires-at",
  breaks,
  family: "family-b",
  profile: "full",
  handle: closingShifted(PIX_CHARGE, "ATIVA", "REMOVIDA_PELO_PSP", shiftMs),
});

export const EXPIRY_MUTATIONS: Mutation[] = [
  pixExpiry("pix-charge-never-removed", "a PIX charge still ATIVA at its expiresAt reads REMOVIDA_PELO_PSP (D11): here it stays ATIVA", Number.POSITIVE_INFINITY),
  pixExpiry("pix-charge-removed-a-second-late", "a PIX charge is REMOVIDA_PELO_PSP from its expiresAt on (D11): here a second later", 1000),
  chargeExpiry("charge-never-expires", "a charge still pending at its expires_at becomes expired (D02, D04): here it stays pending", Number.POSITIVE_INFINITY),
  chargeExpiry("charge-expires-a-second-late", "a charge is expired from its expires_at on (D02, D04): here a second later", 1000),
  chargeExpiry("charge-expires-a-second-early", "a charge is pending until its expires_at (D02, D04): here it expires a second before", -1000),
  {
    name: "paid-charge-expires",
    statements: ["A-CHARGE-FIELD-expires_at"],
    caughtBy: "family-a/charges/paid-stays-paid",
    breaks: "no transition leaves paid (D04): here a paid charge is expired once its expires_at has passed",
    family: "family-a",
    profile: "full",
    handle: readShowing(CHARGE, (shown, now, expiresAt) => (shown === "paid" && now >= expiresAt ? "expired" : shown)),
  },
  {
    name: "paid-pix-charge-removed",
    statements: ["B-PIX-ENDPOINT-get"],
    caughtBy: "family-b/pix/paid-stays-paid",
    breaks: "CONCLUIDA is final (D11): here a paid PIX charge reads REMOVIDA_PELO_PSP once its expiresAt has passed",
    family: "family-b",
    profile: "full",
    handle: readShowing(PIX_CHARGE, (shown, now, expiresAt) => (shown === "CONCLUIDA" && now >= expiresAt ? "REMOVIDA_PELO_PSP" : shown)),
  },
  {
    name: "charge-expires-in-ignored",
    statements: ["A-CHARGE-FIELD-request.expires_in"],
    caughtBy: "family-a/createCharge/201/lifetime-given",
    breaks: "expires_at is created_at plus the expires_in given (D02): here every charge lives the default",
    family: "family-a",
    profile: "full",
    request: (request) => (isChargeCreation(request) ? withLifetime(request, "expires_in", () => undefined) : request),
  },
  {
    name: "charge-default-lifetime-an-hour",
    statements: ["A-CHARGE-FIELD-expires_at"],
    caughtBy: "family-a/createCharge/201/lifetime-default",
    breaks: "without expires_in a charge lives the default 86400 seconds (D02): here an hour",
    family: "family-a",
    profile: "full",
    request: (request) => (isChargeCreation(request) ? withLifetime(request, "expires_in", hourByDefault) : request),
  },
  {
    name: "charge-expires-at-a-second-off",
    statements: ["A-CHARGE-FIELD-expires_at"],
    caughtBy: "family-a/createCharge/201/lifetime-",
    breaks: "expires_at is created_at plus expires_in (D02): here a second later",
    family: "family-a",
    profile: "full",
    response: editJson(is("POST", /^\/v1\/charges$/, 201), (body) => (body.expires_at = secondLater(body.expires_at))),
  },
  {
    name: "pix-expires-in-ignored",
    statements: ["B-PIX-ENDPOINT-create"],
    caughtBy: "family-b/createPixCharge/201/lifetime-given",
    breaks: "a PIX charge lives the expiresIn given (D14): here every PIX charge lives the default",
    family: "family-b",
    profile: "full",
    request: (request) => (isPixCreation(request) ? withLifetime(request, "expiresIn", () => undefined) : request),
  },
  {
    name: "pix-default-lifetime-an-hour",
    statements: ["B-PIX-ENDPOINT-create"],
    caughtBy: "family-b/createPixCharge/201/lifetime-default",
    breaks: "without expiresIn a PIX charge lives the default 86400 seconds (D14): here an hour",
    family: "family-b",
    profile: "full",
    request: (request) => (isPixCreation(request) ? withLifetime(request, "expiresIn", hourByDefault) : request),
  },
  {
    name: "pix-expires-at-a-second-off",
    statements: ["B-PIX-ENDPOINT-create"],
    caughtBy: "family-b/createPixCharge/201/lifetime-",
    breaks: "a PIX charge's expiresAt is its createdAt plus expiresIn (D14): here a second later",
    family: "family-b",
    profile: "full",
    response: editJson(is("POST", /^\/pix$/, 201), (body) => (body.data.expiresAt = secondLater(body.data.expiresAt))),
  },
];
