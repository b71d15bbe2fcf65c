/**
 * Broken servers for decision D48, one per kind of webhook target the check sends
 * (FORBIDDEN_WEBHOOK_TARGETS): in front of a sandbox that refuses private targets, each accepts
 * its one kind at every request member the contract marks `x-webhook-target`, as a server whose
 * guard misses that kind would (it hands the correct server a public stand-in, and gives the
 * client's URL back where the record echoes it). The full profile must catch each; the sandbox
 * behind still refuses every other kind. And one per public target the decision leaves to the
 * client (ACCEPTED_WEBHOOK_TARGETS, the longest target): each refuses its one, as a guard that
 * refuses too much would (the correct server gets a loopback target instead, and refuses it).
 */
import { loadFamilyContract, OperationIndex, webhookTargetMembers } from "@payment-collection/contract/model/index.ts";
import { ACCEPTED_WEBHOOK_TARGETS, FORBIDDEN_WEBHOOK_TARGETS, longestTarget, webhookTargetsRefused, type WebhookTarget } from "../../src/scenarios/webhook-targets-refused.ts";
import { requestJson, type Exchange, type Forward, type Mutation, type Reply } from "./mutants.ts";
import { isIP } from "node:net";
import { nameResolvingNonPublicNotCalled } from "../../src/scenarios/webhook-targets-named-host.ts";

const contract = loadFamilyContract(webhookTargetsRefused.family);
const operations = new OperationIndex(contract.operations);
const members = webhookTargetMembers(contract.document, contract.operations);

/** A public target the correct server accepts in place of the forbidden one. */
const STAND_IN = "https://webhooks.example.com/stand-in";
/** A target the correct server refuses in place of a public one. */
const REFUSED_STAND_IN = "http://127.0.0.1/webhooks";

/** The webhook target members of the operation a request is for. */
function membersOf(request: Exchange): string[] {
  const operationId = operations.match(request.method, request.path)?.operationId;
  return members.filter((m) => m.operationId === operationId).map((m) => m.member);
}

/** Swaps `from` for `to` at the top-level members named (a JSON body's text; other bodies as they are). */
function swapped(body: string, names: string[], from: string, to: string): string {
  const json = requestJson({ body });
  if (!json || !names.some((name) => json[name] === from)) return body;
  for (const name of names) if (json[name] === from) json[name] = to;
  return JSON.stringify(json);
}

/** The echoed record: the member is at the top or under a data envelope. */
function echoedBack(reply: Reply, names: string[], url: string): Reply {
  const restored = swapped(reply.body, names, STAND_IN, url);
  if (restored !== reply.body) return { ...reply, body: restored };
  const json = requestJson(reply);
  const data = json?.data;
  if (!json || typeof data !== "object" || data === null) return reply;
  return { ...reply, body: JSON.stringify({ ...json, data: JSON.parse(swapped(JSON.stringify(data), names, STAND_IN, url)) }) };
}

const slug = (kind: string) => kind.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

function acceptsKind(target: WebhookTarget): Mutation {
  return {
    name: `webhook-target-accepted-${slug(target.kind)}`,
    statements: webhookTargetsRefused.statements,
    caughtBy: webhookTargetsRefused.id,
    breaks: `a webhook target of the kind "${target.kind}" (${target.url}) is refused (D48)`,
    family: webhookTargetsRefused.family,
    profile: "full",
    refusesPrivateWebhookTargets: true,
    async handle(request: Exchange, forward: Forward): Promise<Reply> {
      const names = membersOf(request);
      const body = swapped(request.body, names, target.url, STAND_IN);
      if (body === request.body) return forward(request);
      return echoedBack(await forward({ ...request, body }), names, target.url);
    },
  };
}

function refusesPublic(target: WebhookTarget): Mutation {
  return {
    name: `webhook-target-refused-${slug(target.kind)}`,
    statements: webhookTargetsRefused.statements,
    caughtBy: webhookTargetsRefused.id,
    breaks: `a webhook target D48 leaves to the client, ${target.kind}, is taken like the contract's own`,
    family: webhookTargetsRefused.family,
    profile: "full",
    refusesPrivateWebhookTargets: true,
    request(request: Exchange): Exchange {
      return { ...request, body: swapped(request.body, membersOf(request), target.url, REFUSED_STAND_IN) };
    },
  };
}

/** The longest public target of each marked member that has a maxLength. */
const longestTargets = members.flatMap(({ operationId, member }) => {
  const schema = contract.operations.find((o) => o.operationId === operationId)?.requestBody?.schema as { properties?: Record<string, { maxLength?: unknown }> } | undefined;
  const maxLength = schema?.properties?.[member]?.maxLength;
  const longest = typeof maxLength === "number" ? longestTarget(maxLength) : undefined;
  return longest ? [longest] : [];
});

/** The webhook_url of each charge created with a host name (not an address, not `localhost`), by charge id. */
const namedTargets = new Map<string, string>();
const PAY_CONTROL = /^\/_sandbox\/charges\/([^/]+)\/pay$/;

/**
 * A server whose guard judges names only as they are written: it calls a name that resolves to a
 * non-public address. It hands the charge's webhook_url on (the correct server takes a name) and,
 * once the charge is paid, POSTs its event there itself, as the correct server would not.
 */
const nameResolvingToPrivateCalled: Mutation = {
  name: "webhook-name-resolving-to-private-called",
  statements: nameResolvingNonPublicNotCalled.statements,
  caughtBy: nameResolvingNonPublicNotCalled.id,
  breaks: "a webhook target whose host name resolves to a non-public address is refused when its event is to be sent (D48): here it is called",
  family: nameResolvingNonPublicNotCalled.family,
  profile: "full",
  refusesPrivateWebhookTargets: true,
  async handle(request: Exchange, forward: Forward): Promise<Reply> {
    const reply = await forward(request);
    if (reply.status >= 300) return reply;
    const sent = membersOf(request).map((member) => requestJson(request)?.[member]).find((url): url is string => typeof url === "string");
    const host = sent === undefined ? "" : new URL(sent).hostname;
    const created = requestJson(reply);
    if (sent !== undefined && !isIP(host.replace(/^\[|\]$/g, "")) && typeof created?.id === "string") namedTargets.set(created.id, sent);
    const paid = PAY_CONTROL.exec(request.path)?.[1];
    const url = paid === undefined ? undefined : namedTargets.get(decodeURIComponent(paid));
    if (url !== undefined) {
      void fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "charge.paid", data: { id: paid } }) }).catch(() => undefined);
    }
    return reply;
  },
};

export const WEBHOOK_TARGET_MUTATIONS: Mutation[] = [...FORBIDDEN_WEBHOOK_TARGETS.map(acceptsKind), ...[...ACCEPTED_WEBHOOK_TARGETS, ...longestTargets].map(refusesPublic), nameResolvingToPrivateCalled];
