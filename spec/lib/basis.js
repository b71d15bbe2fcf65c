// Decorators that mark what in the contract comes from a project decision rather than
// from the interface description. They only write OpenAPI vendor extensions, so every
// tool that reads the generated documents (conformance profiles, docs portal, readers)
// can tell the document's word from ours. Decision ids refer to docs/decisions.md.
import { setExtension, getExtensions } from "@typespec/openapi";

const DECISION_ID = /^D\d{2}$/;

function checkId(context, id) {
  if (!DECISION_ID.test(id)) {
    context.program.reportDiagnostic({
      code: "invalid-decision-id",
      message: `Decision id "${id}" must look like D07 (see docs/decisions.md).`,
      severity: "error",
      target: context.decoratorTarget,
    });
  }
}

/** The whole element exists because of decision `id`. */
function $decision(context, target, id) {
  checkId(context, id);
  setExtension(context.program, target, "x-basis", "decision");
  setExtension(context.program, target, "x-decision", id);
}

/**
 * The element is the document's, but the listed schema keywords (enum, pattern, minimum,
 * required, nullable, ...) were added by decision `id`. Repeatable.
 */
function $decided(context, target, id, keywords) {
  checkId(context, id);
  const existing = getExtensions(context.program, target).get("x-decided") ?? [];
  setExtension(context.program, target, "x-decided", [...existing, { decision: id, keywords: [...keywords] }]);
}

/**
 * Marks an aspect of one response of an operation as decided: its "status" (the document
 * names the outcome but not the code), its "content-type", or its "body" shape. OpenAPI
 * response objects cannot carry extensions from TypeSpec, so this lands on the operation
 * as `x-decided-responses: { "<status>": { decision, aspects } }`. Repeatable.
 */
function $decidedResponse(context, target, status, id, aspects) {
  checkId(context, id);
  const existing = getExtensions(context.program, target).get("x-decided-responses") ?? {};
  setExtension(context.program, target, "x-decided-responses", {
    ...existing,
    [status]: { decision: id, aspects: [...aspects] },
  });
}

/**
 * Like $decidedResponse, restricted to some error codes of the response: the listed aspects
 * are decided for responses carrying one of `codes` and the document's word for the others
 * (e.g. a 400 the document fixes for one code and a decision gives to another).
 * Lands as `x-decided-responses: { "<status>": { decision, aspects, codes } }`.
 */
function $decidedResponseCodes(context, target, status, id, aspects, codes) {
  checkId(context, id);
  const existing = getExtensions(context.program, target).get("x-decided-responses") ?? {};
  setExtension(context.program, target, "x-decided-responses", {
    ...existing,
    [status]: { decision: id, aspects: [...aspects], codes: [...codes] },
  });
}

/**
 * A parameter of the operation exists because of decision `id` (its name and meaning).
 * Kept on the operation as `x-decided-parameters: { "<name>": "<id>" }` because a marker
 * on a parameter whose schema is a $ref would sit beside the $ref, which OpenAPI 3.0 forbids.
 */
function $decidedParameter(context, target, name, id) {
  checkId(context, id);
  const existing = getExtensions(context.program, target).get("x-decided-parameters") ?? {};
  setExtension(context.program, target, "x-decided-parameters", { ...existing, [name]: id });
}

/**
 * A behaviour of the element that no schema keyword can express (a transition between
 * values, the absence of a path prefix, the plan a limit belongs to) comes from decision
 * `id`. Kept as `x-decided-behaviour: [{ decision, about }]`. Repeatable.
 */
function $decidedBehaviour(context, target, id, about) {
  checkId(context, id);
  const existing = getExtensions(context.program, target).get("x-decided-behaviour") ?? [];
  setExtension(context.program, target, "x-decided-behaviour", [...existing, { decision: id, about }]);
}

/**
 * JSON Schema `minProperties`, which TypeSpec's standard library does not offer for
 * OpenAPI output. The emitter copies extension entries verbatim onto the schema.
 */
function $minProperties(context, target, count) {
  setExtension(context.program, target, "minProperties", count);
}

/** `not: {required: [...]}`: the listed properties must not appear (the object stays open). */
function $forbidProperties(context, target, names) {
  const list = [...names];
  const not = list.length === 1 ? { required: list } : { anyOf: list.map((name) => ({ required: [name] })) };
  setExtension(context.program, target, "not", not);
}

/** OAuth-like scopes an apiKey operation requires (OpenAPI 3.0 cannot list them). */
function $requiredScopes(context, target, scopes) {
  setExtension(context.program, target, "x-required-scopes", [...scopes]);
}


export const $decorators = {
  "PaymentCollection.Basis": {
    decision: $decision,
    decided: $decided,
    decidedResponse: $decidedResponse,
    decidedResponseCodes: $decidedResponseCodes,
    decidedParameter: $decidedParameter,
    decidedBehaviour: $decidedBehaviour,
    minProperties: $minProperties,
    forbidProperties: $forbidProperties,
    requiredScopes: $requiredScopes,
  },
};
