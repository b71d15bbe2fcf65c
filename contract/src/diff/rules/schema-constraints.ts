/**
 * Rule family "schema-constraints": pattern, length / range / size bounds, defaults.
 * A tighter request constraint refuses values clients send; a looser response constraint
 * produces values clients never saw. The reverse directions are compatible.
 */
import type { DiffContext } from "../context.ts";
import type { BoundKeyword, NormalSchema } from "../schema-normalize.ts";
import { quote } from "../context.ts";
import { subject, type SchemaScope } from "../schema-scope.ts";
import { defineRule } from "../types.ts";

const F = "schema-constraints";
export const RULES = {
  // A pattern added or changed refuses strings that matched before (issue #18; oasdiff request-property-pattern-added/changed).
  requestPatternNarrowed: defineRule(F, "request-pattern-narrowed", "breaking", "issue #18: a narrowed pattern in a request; oasdiff request-property-pattern-changed"),
  requestPatternWidened: defineRule(F, "request-pattern-widened", "compatible", "common: a pattern dropped accepts every old value"),
  // Clients may rely on the promised shape (e.g. digits only); dropping or changing the pattern breaks that promise.
  responsePatternWidened: defineRule(F, "response-pattern-widened", "breaking", "common: oasdiff response-property-pattern-changed"),
  responsePatternNarrowed: defineRule(F, "response-pattern-narrowed", "compatible", "common: a pattern added to a response only promises more"),
  // maxLength lowered, minimum raised, bound added...: values clients send are refused (issue #18 "narrowed length"; oasdiff request-property-max-length-decreased...).
  requestBoundNarrowed: defineRule(F, "request-bound-narrowed", "breaking", "issue #18: a narrowed length in a request; oasdiff request-property-max-length-decreased"),
  requestBoundWidened: defineRule(F, "request-bound-widened", "compatible", "common: a looser bound accepts every old value"),
  // Clients size buffers, columns and checks by the promised bounds (oasdiff response-property-max-length-increased).
  responseBoundWidened: defineRule(F, "response-bound-widened", "breaking", "common: oasdiff response-property-max-length-increased"),
  responseBoundNarrowed: defineRule(F, "response-bound-narrowed", "compatible", "common: a tighter response bound is a subset of what clients accept"),
  // A client that omits the field gets another behaviour than the one it was written for (oasdiff request-property-default-value-changed).
  requestDefaultChanged: defineRule(F, "request-default-changed", "breaking", "common: oasdiff request-property-default-value-changed"),
  // A default in a response documents a value; clients read the value actually sent.
  responseDefaultChanged: defineRule(F, "response-default-changed", "informational", "common: oasdiff response-property-default-value-changed (info)"),
};

const isLower = (keyword: BoundKeyword): boolean => keyword.startsWith("min") || keyword.startsWith("exclusiveMin");

export function compareConstraints(ctx: DiffContext, scope: SchemaScope, base: NormalSchema, head: NormalSchema): void {
  const what = subject(scope);
  const request = scope.side === "request";

  if (base.pattern !== head.pattern) {
    const message = `${what}: pattern ${base.pattern === undefined ? "(none)" : quote(base.pattern)} -> ${head.pattern === undefined ? "(none)" : quote(head.pattern)}`;
    const widened = head.pattern === undefined;
    const narrowed = base.pattern === undefined;
    if (request) ctx.emit(widened ? RULES.requestPatternWidened : RULES.requestPatternNarrowed, head.loc, message);
    else ctx.emit(narrowed ? RULES.responsePatternNarrowed : RULES.responsePatternWidened, head.loc, message);
  }

  for (const keyword of new Set([...base.bounds.keys(), ...head.bounds.keys()])) {
    const before = base.bounds.get(keyword);
    const after = head.bounds.get(keyword);
    if (before?.value === after?.value) continue;
    // Tighter: a bound added, a lower bound raised, an upper bound lowered.
    const tighter = before === undefined || (after !== undefined && (isLower(keyword) ? after.value > before.value : after.value < before.value));
    const message = `${what}: ${keyword} ${before?.value ?? "(none)"} -> ${after?.value ?? "(none)"}`;
    const at = after?.loc ?? head.loc;
    if (request) ctx.emit(tighter ? RULES.requestBoundNarrowed : RULES.requestBoundWidened, at, message);
    else ctx.emit(tighter ? RULES.responseBoundNarrowed : RULES.responseBoundWidened, at, message);
  }

  if ((base.hasDefault || head.hasDefault) && (base.hasDefault !== head.hasDefault || JSON.stringify(base.default) !== JSON.stringify(head.default))) {
    const show = (s: NormalSchema): string => (s.hasDefault ? quote(s.default) : "(none)");
    const message = `${what}: default ${show(base)} -> ${show(head)}`;
    ctx.emit(request ? RULES.requestDefaultChanged : RULES.responseDefaultChanged, head.loc, message);
  }
}
