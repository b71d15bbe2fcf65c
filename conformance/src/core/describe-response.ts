/**
 * How a reason quotes what a server said: never cut in the middle of a word without saying so.
 * An error body's explanation is quoted whole (it is why a check could not go on: a refused
 * fixture, a webhook target the server does not accept); any other text is shortened at a word
 * boundary, saying how much was left out.
 */
import { parseJsonBody } from "@payment-collection/contract/model/index.ts";
import type { ObservedResponse } from "./validate.ts";

/** Whitespace folded to one line; longer than `max`, cut at the last space or `;` and marked. */
export function shortened(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const head = flat.slice(0, max);
  const boundary = Math.max(head.lastIndexOf(" "), head.lastIndexOf(";"), head.lastIndexOf(","));
  const kept = (boundary > max / 2 ? head.slice(0, boundary) : head).replace(/[\s;,:]+$/, "");
  return `${kept} ... (${flat.length - kept.length} more characters)`;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

/**
 * What an error body says, on one line and whole: its code, then its message and details
 * (family B envelope 1), its message (envelope 2), or its title and detail (family A's
 * problem). Undefined when the body is no error body.
 */
export function errorExplanation(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const error = isRecord(body.error) ? body.error : undefined;
  const code = text(body.code) ?? text(error?.code) ?? text(error?.errorCode);
  const parts = error ? [text(error.message), text(error.details)] : [text(body.title), text(body.detail)];
  const said = [...new Set(parts.filter((part): part is string => part !== undefined))].map((part) => part.replace(/\s+/g, " ").replace(/[.:;]+$/, ""));
  if (code === undefined && said.length === 0) return undefined;
  return [code, said.join(": ")].filter(Boolean).join(": ");
}

/** A response in a reason: its status, and the error's explanation whole, or the body shortened. */
export function describeResponse(response: Pick<ObservedResponse, "status" | "body">): string {
  const parsed = parseJsonBody(response.body);
  const explanation = parsed.ok ? errorExplanation(parsed.value) : undefined;
  const said = explanation ?? shortened(response.body, 200);
  return said === "" ? String(response.status) : `${response.status} ${said}`;
}

/** A value in a reason, as JSON, shortened like any text (`undefined` when absent). */
export function quoted(value: unknown, max: number): string {
  return shortened(JSON.stringify(value) ?? "undefined", max);
}
