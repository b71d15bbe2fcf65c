/**
 * Rule family "errors": the error codes of error responses (family A problem `code`,
 * family B envelope 1 `error.code`, envelope 2 `error.errorCode`).
 * Anchor: Errors, "Every error carries a stable `code` and an HTTP status": clients branch on
 * the code, so an existing code must keep its meaning and stay where it was.
 */
import { quote, type DiffContext } from "../context.ts";
import type { NormalSchema } from "../schema-normalize.ts";
import { subject, type SchemaScope } from "../schema-scope.ts";
import { defineRule } from "../types.ts";

const F = "errors";
export const RULES = {
  // A client that handles the code for this response never sees it again: its handling is dead code and the condition now surfaces under another code (Errors: stable code).
  codeRemoved: defineRule(F, "response-error-code-removed", "breaking", "Errors (family A): every error carries a stable code; issue #18: a changed error code"),
  // One code replaced by another in place: the same condition under a new name.
  codeChanged: defineRule(F, "response-error-code-changed", "breaking", "Errors (family A): every error carries a stable code; issue #18: a changed error code"),
  // A new code arrives with an HTTP status the client already handles (error handling goes by status first); existing codes keep their meaning. Unlike a widened response enum, this is compatible.
  codeAdded: defineRule(F, "response-error-code-added", "compatible", "Errors: every error carries a stable code and an HTTP status; existing codes unchanged"),
};

const list = (values: unknown[]): string => values.map(quote).join(", ");

export function compareErrorCodes(ctx: DiffContext, scope: SchemaScope, base: NormalSchema, head: NormalSchema): void {
  const what = subject(scope);
  const before = base.enum ?? [];
  const after = head.enum ?? [];
  const removed = before.filter((v) => !after.includes(v));
  const added = after.filter((v) => !before.includes(v));
  if (!head.enum && base.enum) {
    ctx.emit(RULES.codeRemoved, head.loc, `${what}: error codes ${list(before)} no longer listed (any code)`);
    return;
  }
  if (removed.length > 0 && added.length > 0 && before.length === removed.length) {
    ctx.emit(RULES.codeChanged, head.loc, `${what}: error code ${list(removed)} -> ${list(added)}`);
    return;
  }
  if (removed.length > 0) ctx.emit(RULES.codeRemoved, head.loc, `${what}: error code${removed.length > 1 ? "s" : ""} ${list(removed)} removed`);
  if (added.length > 0) ctx.emit(RULES.codeAdded, head.loc, `${what}: error code${added.length > 1 ? "s" : ""} ${list(added)} added`);
}
