/**
 * The one answer to "is this the document's word?", for every check of the suites: response
 * validation, the generic check classes, the scenarios and the hand-written checks all ask it
 * here, and nothing else in the conformance package reads a decision marking.
 *
 * `seed` holds a server to the document's word only; `full` holds it to the whole contract. So
 * an element is asserted under `full` always, and under `seed` only when no decision marks it:
 *
 * | element                    | decided when                                                            |
 * | -------------------------- | ----------------------------------------------------------------------- |
 * | schema, property, body     | `x-basis: decision` (it exists because of a decision)                   |
 * | keyword of a schema        | the schema is a decision element, or `x-decided` lists the keyword      |
 * |   (minimum, maxLength,     |   (`minimum` covers `exclusiveMinimum`, `maximum` `exclusiveMaximum`;   |
 * |    pattern, format, enum,  |   `required` on a property: that its parent requires it)                |
 * |    required, nullable...)  |                                                                         |
 * | response aspect            | `x-decided-responses.<status>.aspects` (status, content-type, body),    |
 * |   (status, content type,   |   restricted by `codes` to those error codes when the check knows its   |
 * |    body)                   |   code; a body whose schema is a decision element is decided too        |
 * | operation, webhook event   | `x-basis: decision` on it                                               |
 * | parameter                  | `x-basis: decision` on it, or `x-decided-parameters` of the operation   |
 * | response header            | `x-basis: decision` on it                                               |
 * | behaviour                  | `x-decided-behaviour` whose `about` names it (`x-rate-limits`: D09 for  |
 * |                            |   family A; `unreadable bodies`: D39 on the document)                   |
 * |                            |   or the node itself is a decision element                              |
 * | example (of a member)      | the member's schema is a decision element                               |
 */
import { decidedBehaviourOf, decidedKeywordsOf, decisionOf } from "@payment-collection/contract/model/markings.ts";
import type { DecidedAspect } from "@payment-collection/contract/model/markings.ts";
import type { ContractHeader, ContractOperation, ContractParameter, ContractResponse } from "@payment-collection/contract/model/index.ts";

export type Profile = "seed" | "full";
export const PROFILES: readonly Profile[] = ["seed", "full"];

/** An element of the contract a check may hold a server to. */
export type ContractElement =
  /** A schema, property or body: does it exist by the document's word? */
  | { kind: "schema"; schema: unknown }
  /** One keyword of a schema or property. */
  | { kind: "keyword"; schema: unknown; keyword: string }
  /** One aspect of a documented response; `code` is the error code the check provokes, when it knows it. */
  | { kind: "response"; response: ContractResponse; aspect: DecidedAspect; code?: string }
  /** A parameter of an operation (or a raw Parameter Object, e.g. a webhook's header). */
  | { kind: "parameter"; parameter: ContractParameter | Record<string, unknown>; operation?: ContractOperation }
  /** An operation or a webhook event: does it exist by the document's word? */
  | { kind: "operation"; node: unknown }
  | { kind: "header"; header: ContractHeader }
  /** A behaviour of an operation, schema or document; `about` names it (`x-rate-limits`, `transitions`...). */
  | { kind: "behaviour"; node: unknown; about: string }
  /** The contract's example value of a member. */
  | { kind: "example"; schema: unknown };

/** Keywords whose marking also covers a companion keyword. */
const COMPANION: Record<string, string> = { exclusiveMinimum: "minimum", exclusiveMaximum: "maximum" };

/** The raw Operation Object of a contract operation (where its markings sit), or the node as given. */
function rawNode(node: unknown): unknown {
  return typeof node === "object" && node !== null && "operation" in node && "operationId" in node ? (node as ContractOperation).operation : node;
}

/**
 * The decision an element comes from; undefined when it is the document's word. Everything a
 * profile relaxes, and every decision a report names, is read through this function.
 */
export function decisionBehind(element: ContractElement): string | undefined {
  switch (element.kind) {
    case "schema":
    case "example":
      return decisionOf(element.schema);
    case "keyword": {
      const keyword = COMPANION[element.keyword] ?? element.keyword;
      return decisionOf(element.schema) ?? decidedKeywordsOf(element.schema).find((entry) => entry.keywords.includes(keyword))?.decision;
    }
    case "response": {
      const { response, aspect, code } = element;
      const marking = response.decided;
      const applies = marking && (marking.codes === undefined || code === undefined || marking.codes.includes(code));
      if (applies && marking.aspects.includes(aspect)) return marking.decision;
      return aspect === "body" ? decisionOf(response.schema) : undefined;
    }
    case "parameter": {
      const { parameter, operation } = element;
      const own = typeof parameter.decision === "string" ? parameter.decision : decisionOf(parameter);
      return own ?? (operation && typeof parameter.name === "string" ? operation.markings.parameters[parameter.name] : undefined);
    }
    case "operation":
      return decisionOf(rawNode(element.node));
    case "header":
      return element.header.decision;
    case "behaviour": {
      const node = rawNode(element.node);
      const about = element.about;
      return decisionOf(node) ?? decidedBehaviourOf(node).find((entry) => entry.about.includes(about))?.decision;
    }
  }
}

/** Whether the element is the document's word (no decision marks it). */
export function isDocumentsWord(element: ContractElement): boolean {
  return decisionBehind(element) === undefined;
}

/** Whether a check under `profile` holds a server to the element. */
export function asserted(profile: Profile, element: ContractElement): boolean {
  return profile === "full" || isDocumentsWord(element);
}
