/**
 * Broken servers for the generic checks (src/derived/): a proxy in front of the correct sandbox
 * that breaks one rule at one operation (derived-faults.ts holds the faults). Most are made from
 * the contract model, one per operation of a kind ("every operation that takes a record's id,
 * served to another account"), so that the self-test proves the checks reach every operation;
 * a few are listed by hand where the fault needs a value the model does not give. `caughtBy`
 * names the derived result that must fail.
 */
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import type { Profile } from "../../src/core/profiles/index.ts";
import type { DerivedClass } from "../../src/derived/index.ts";
import { OTHER_DECISIONS, startProxy } from "./mutants.ts";
import {
  countsOnAnotherAccount,
  describesAnotherThanClosest,
  describesFartherLimit,
  idsOfTheSameMoment,
  noLimitsNoHeaders,
  reportsAnotherLimit,
  refusesButCreates,
  repairs,
  unenforced,
  type DerivedKeys,
  type Handler,
  type Json,
} from "./derived-faults.ts";
import { STATEMENT_DERIVED_MUTATIONS_A } from "./statement-mutants-a.ts";
import { derivedStatements, GENERATED_MUTATIONS, matcher, type DerivedMutation } from "./derived-generated.ts";
import { STATEMENT_DERIVED_MUTATIONS_B, withClassStatementsB } from "./statement-mutants-b.ts";

export type { DerivedKeys, DerivedMutation };

const A = (operationId: string) => matcher("family-a", operationId);
const B = (operationId: string) => matcher("family-b", operationId);

const hand = (derivedClass: DerivedClass, family: FamilyId, operation: string, variant: string, breaks: string, handle: Handler, extra: Partial<DerivedMutation> = {}): DerivedMutation => ({
  name: `${derivedClass}:${operation}:${variant}`,
  derivedClass,
  family,
  operation,
  breaks,
  caughtBy: `${family}/derived/${derivedClass}/${operation}/${variant}`,
  statements: derivedStatements(derivedClass, family, operation),
  handle,
  ...extra,
});

/** Faults the contract model cannot place by itself: nested members, a value a refusal hides, the rate-limit groups. */
const HAND_LISTED: DerivedMutation[] = [
  hand("negative-data", "family-b", "createCustomer", "without-address.city", "a nested required member dropped is refused", repairs(B("createCustomer"), (b) => b.address && (b.address.city ??= "São Paulo")), { statements: ["B-CUSTOMER-FIELD-address.city"] }),
  hand("negative-data", "family-b", "updateCustomer", "wrong-type-notes", "a nullable text of the wrong type is refused", repairs(B("updateCustomer"), (b) => typeof b.notes === "number" && (b.notes = String(b.notes))), { statements: ["B-SERVICE-PRINCIPLE-request-processing", "B-CUSTOMER-FIELD-notes"] }),
  hand("negative-data", "family-b", "createTransaction", "nothing-created", "a refused creation creates nothing", refusesButCreates(B("createTransaction"), { amount: 12.34 }), { profile: "full", statements: ["B-SERVICE-PRINCIPLE-request-processing"] }),
  hand("consistency", "family-a", "createCharge", "distinct-ids", "charges created together get ids of their own", idsOfTheSameMoment(A("createCharge"))),
  hand("consistency", "family-b", "createCustomer", "distinct-ids", "customers created together get ids of their own", idsOfTheSameMoment(B("createCustomer"))),
  hand("consistency", "family-b", "updateCustomer", "read-shows-change", "an update changes what it names", repairs(B("updateCustomer"), (b: Json) => void delete b.email), { name: "consistency:updateCustomer:drops-a-member", statements: ["B-SERVICE-PRINCIPLE-capabilities", "B-CUSTOMER-ENDPOINT-update"] }),
  hand("rate-limits", "family-b", "getHealth", "general-limit-enforced", "a used-up general limit gives 429", unenforced(B("getHealth")), { needsRateLimits: true, statements: ["B-LIMITS-LIMIT-general", "B-LIMITS-STATUS-429", "B-LIMITS-RULE-family-b"] }),
  hand("rate-limits", "family-b", "createPixCharge", "pix-limit-enforced", "a used-up PIX limit gives 429", unenforced(B("createPixCharge")), { needsRateLimits: true, statements: ["B-LIMITS-LIMIT-pix", "B-LIMITS-STATUS-429"] }),
  hand("rate-limits", "family-b", "createTransaction", "transactions-limit-enforced", "a used-up transaction limit gives 429", unenforced(B("createTransaction")), { needsRateLimits: true, statements: ["B-LIMITS-LIMIT-transactions", "B-LIMITS-STATUS-429"] }),
  hand("rate-limits", "family-b", "listTransactions", "queries-limit-enforced", "a used-up query limit gives 429", unenforced(B("listTransactions")), { needsRateLimits: true, statements: ["B-LIMITS-LIMIT-queries", "B-LIMITS-STATUS-429"] }),
  hand("rate-limits", "family-b", "getHealth", "general-limit-enforced", "without headers the published 100 per minute apply", noLimitsNoHeaders, {
    name: "rate-limits:no-headers-no-limit",
    statements: ["B-LIMITS-RULE-family-b", "B-LIMITS-LIMIT-general", "B-LIMITS-STATUS-429"],
    // The target declares no plan: the published figures are what the server is held to.
    adjustTarget: (target) => void delete target.familyB!.plan,
  }),
  hand("rate-limits", "family-b", "createPixCharge", "pix-limit-reported", "the 429 of a used-up limit describes it (D27)", reportsAnotherLimit(B("createPixCharge")), { needsRateLimits: true, profile: "full", statements: ["B-LIMITS-LIMIT-pix"] }),
  hand("rate-limits", "family-b", "createPixCharge", "pix-limit-described-while-closest", "while the PIX limit is the closest to exhaustion, the headers describe it (D27)", describesFartherLimit(B("createPixCharge")), { needsRateLimits: true, profile: "full", statements: ["B-LIMITS-LIMIT-pix"] }),
  hand("rate-limits", "family-b", "getHealth", "other-account-unaffected", "limits are per account", countsOnAnotherAccount(B("getHealth")), { needsRateLimits: true, statements: ["B-LIMITS-LIMIT-general"] }),
  hand("rate-limits", "family-b", "createPixCharge", "other-account-unaffected", "the PIX limit is per account too", countsOnAnotherAccount(B("createPixCharge")), { needsRateLimits: true, statements: ["B-LIMITS-LIMIT-pix"] }),
  hand("rate-limits", "family-b", "listTransactions", "closest-limit-described", "a request that uses the general limit up says so, whatever its other limit has left (D27)", describesAnotherThanClosest(B("listTransactions"), false), { needsRateLimits: true, profile: "full", statements: ["B-LIMITS-LIMIT-general"] }),
  hand("rate-limits", "family-b", "listTransactions", "used-up-limit-described", "the 429 of a used-up general limit describes it, whatever the request's other limit has left (D27)", describesAnotherThanClosest(B("listTransactions"), true), { needsRateLimits: true, profile: "full", statements: ["B-LIMITS-LIMIT-general"] }),
];

export const DERIVED_MUTATIONS: DerivedMutation[] = withClassStatementsB([...GENERATED_MUTATIONS, ...HAND_LISTED, ...STATEMENT_DERIVED_MUTATIONS_A, ...STATEMENT_DERIVED_MUTATIONS_B]);

/** Every broken server has its own name (the test's label and the score's). */
const names = DERIVED_MUTATIONS.map((m) => m.name);
const twice = names.filter((name, i) => names.indexOf(name) !== i);
if (twice.length > 0) throw new Error(`broken servers named twice: ${twice.join(", ")}`);

/**
 * A faithful server that decided differently where the document is silent (mutants.ts'
 * OTHER_DECISIONS) and also: serves PIX and transactions under `/v2` (the target's
 * pathPrefix) and answers 403 for another account's records.
 */
export const FAITHFUL_PREFIX = "/v2";
export const faithfulOtherDecisions: Handler = async (request, forward, keys) => {
  let inner = request;
  if (/^\/v2\/(pix|transactions)/.test(inner.path)) inner = { ...inner, path: inner.path.slice(FAITHFUL_PREFIX.length) };
  else if (/^\/(pix|transactions)/.test(inner.path)) return { status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ success: false, error: { code: "NOT_FOUND", message: "no such path", details: "" } }) };
  const reply = await forward(inner);
  const tenant = reply.status === 404 && [keys.familyA.secondAccount, keys.familyB.secondAccount].includes(inner.headers["x-api-key"] ?? "");
  return OTHER_DECISIONS.response!(inner, tenant ? { ...reply, status: 403 } : reply);
};

export function startDerivedMutant(upstream: string, handle: Handler, keys: DerivedKeys): Promise<{ url: string; close(): Promise<void> }> {
  return startProxy(upstream, (request, forward) => handle(request, forward, keys));
}
