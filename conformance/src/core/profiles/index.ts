/**
 * Conformance profiles: `seed` checks only what the interface description states, `full` adds
 * the project's decisions. Everything here is derived from the contract's decision markings.
 */
export { PROFILES, asserted, decisionBehind, isDocumentsWord, type ContractElement, type Profile } from "./document-word.ts";
export { profileSchema, relaxedKeywords, isDecisionElement } from "./schema-profile.ts";
export {
  responseExpectation,
  statusAccepted,
  describeStatusRule,
  mediaTypeOf,
  mediaTypeAccepted,
  isJsonMediaType,
  type ResponseExpectation,
  type StatusRule,
  type HeaderExpectation,
} from "./response-expectation.ts";
