/**
 * The decision markings the build writes into the documents: which elements exist or take
 * their shape because of a project decision rather than the interface description.
 *
 *   x-basis: decision + x-decision: Dnn       on an operation, parameter, header or schema
 *   x-decided: [{decision, keywords}]          keywords of a schema fixed by a decision
 *   x-decided-behaviour: [{decision, about}]   behaviour of an operation or document
 *   x-decided-responses: {status: {decision, aspects}}
 *   x-decided-parameters: {name: Dnn}
 *   x-required-scopes: [scope]                 (read with the operation's security)
 */
import { isObject } from "./json.ts";

/** The aspects of a response that a decision fixed (`x-decided-responses`). */
export type DecidedAspect = "status" | "content-type" | "body";

export interface DecidedKeywords {
  decision: string;
  keywords: string[];
}

export interface DecidedBehaviour {
  decision: string;
  about: string;
}

export interface DecidedResponse {
  decision: string;
  aspects: DecidedAspect[];
  /**
   * When present, the aspects are decided only for responses carrying one of these error
   * codes (`@decidedResponseCodes`); for the response's other codes they are the document's.
   */
  codes?: string[];
}

/** Every marking of one operation. */
export interface OperationMarkings {
  /** The operation itself exists because of this decision (`x-basis: decision`). */
  decision?: string;
  decided: DecidedKeywords[];
  behaviour: DecidedBehaviour[];
  /** By status. */
  responses: Record<string, DecidedResponse>;
  /** By parameter name. */
  parameters: Record<string, string>;
}

/** The decision an element exists by (`x-basis: decision` with `x-decision`), or undefined. */
export function decisionOf(node: unknown): string | undefined {
  return isObject(node) && node["x-basis"] === "decision" && typeof node["x-decision"] === "string" ? node["x-decision"] : undefined;
}

/** The `x-decided` entries of a node (schema keywords a decision fixed). */
export function decidedKeywordsOf(node: unknown): DecidedKeywords[] {
  if (!isObject(node) || !Array.isArray(node["x-decided"])) return [];
  return node["x-decided"]
    .filter(isObject)
    .filter((e) => typeof e.decision === "string")
    .map((e) => ({ decision: String(e.decision), keywords: Array.isArray(e.keywords) ? e.keywords.map(String) : [] }));
}

/** The `x-decided-behaviour` entries of an operation or document. */
export function decidedBehaviourOf(node: unknown): DecidedBehaviour[] {
  if (!isObject(node) || !Array.isArray(node["x-decided-behaviour"])) return [];
  return node["x-decided-behaviour"]
    .filter(isObject)
    .filter((e) => typeof e.decision === "string")
    .map((e) => ({ decision: String(e.decision), about: typeof e.about === "string" ? e.about : "" }));
}

/** Every marking of a raw Operation Object. */
export function operationMarkings(operation: unknown): OperationMarkings {
  const op = isObject(operation) ? operation : {};
  const responses: Record<string, DecidedResponse> = {};
  for (const [status, raw] of Object.entries(isObject(op["x-decided-responses"]) ? op["x-decided-responses"] : {})) {
    if (!isObject(raw)) continue;
    responses[status] = { decision: String(raw.decision), aspects: (Array.isArray(raw.aspects) ? raw.aspects : []) as DecidedAspect[] };
    if (Array.isArray(raw.codes)) responses[status].codes = raw.codes.map(String);
  }
  const parameters: Record<string, string> = {};
  for (const [name, decision] of Object.entries(isObject(op["x-decided-parameters"]) ? op["x-decided-parameters"] : {})) {
    if (typeof decision === "string") parameters[name] = decision;
  }
  return { decision: decisionOf(op), decided: decidedKeywordsOf(op), behaviour: decidedBehaviourOf(op), responses, parameters };
}
