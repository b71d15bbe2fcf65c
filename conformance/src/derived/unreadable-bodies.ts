/**
 * Bodies a server cannot read as the operation's JSON, for every operation that takes a body
 * (negative data sends them with its one-constraint variants, and judges them the same way:
 * refused, nothing created, nothing changed):
 * - `not-json`: the operation's valid body cut short, sent as `application/json`;
 * - `empty`: no body at all, where the body's schema requires members;
 * - `not-sent-as-json` (D39): the valid body, as `text/plain`;
 * - `over-size-limit` (D39): the valid body padded with whitespace past D39's 1 MiB.
 *
 * "All bodies are JSON" is the document's word: under seed a server must refuse the first two
 * with a 4xx (any 4xx; a server that decided 422 is as faithful). Where the body itself is a
 * decision (the whole request of an operation the document leaves to the server), only full
 * sends them. The other two, and the exact answer (the operation's documented 400, in its
 * error body), are D39's: only under full.
 * Not checked from outside: the structure limits of D39 (depth, items, values), since a body
 * that exceeds them only through members the schema refuses anyway would be refused for those.
 */
import type { ContractOperation } from "@payment-collection/contract/model/index.ts";
import { checksFor } from "@payment-collection/contract/statements.ts";
import { keywordOf, objectView, requestSchema } from "./request-schema.ts";
import type { DerivedEnv, Json, PlannedRequest } from "./shared.ts";

/** D39's body size limit: a body past it is refused with the operation's 400. */
export const BODY_SIZE_LIMIT = 1024 * 1024;

export interface UnreadableVariant {
  name: string;
  /** The request as sent: the valid request with its body (and Content-Type) replaced. */
  request(valid: PlannedRequest, body: Json): PlannedRequest;
  /** Statement ids the variant enforces beyond the class's own. */
  statements: string[];
  /** The answer must be the operation's documented 400 (D39), not only some 4xx. */
  exact: boolean;
}

/** Catalogue statements of the family whose encodings match (the catalogue names which statement is which). */
function statementsWhere(env: DerivedEnv, matches: (encoding: Record<string, unknown>) => boolean): string[] {
  if (!env.catalogue) return [];
  return env.catalogue.statements.filter((s) => checksFor(s, env.family).some((encoding) => matches(encoding as unknown as Record<string, unknown>))).map((s) => s.id);
}

/** The statements that every body is JSON (`content-types` encodings). */
const jsonBodyStatements = (env: DerivedEnv) => statementsWhere(env, (e) => e.check === "content-types");

/** The statements that the operation's request body is sent as application/json (`request-body` encodings naming it). */
function contentTypeStatements(env: DerivedEnv, op: ContractOperation): string[] {
  return statementsWhere(env, (e) => {
    if (e.check !== "request-body") return false;
    const methods = Array.isArray(e.methods) ? e.methods.map(String) : undefined;
    return e.operation === op.operationId || (e.operation === "*" && (!methods || methods.includes(op.method.toLowerCase())));
  });
}

/** Whether the profile's view of the body refuses an empty object (members required, or a minimum count). */
export function refusesEmptyObject(schema: Json | undefined): boolean {
  const minProperties = schema ? keywordOf(schema, "minProperties") : undefined;
  return (objectView(schema)?.required.length ?? 0) > 0 || (typeof minProperties === "number" && minProperties > 0);
}

const withBody = (valid: PlannedRequest, body: string, contentType?: string): PlannedRequest => {
  const headers = Object.fromEntries(Object.entries(valid.headers).filter(([name]) => name.toLowerCase() !== "content-type"));
  return { ...valid, headers: contentType ? { ...headers, "content-type": contentType } : headers, body };
};

/** The unreadable bodies the run's profile holds the operation to (none when it has no body). */
export function unreadableVariants(env: DerivedEnv, op: ContractOperation): UnreadableVariant[] {
  if (!op.requestBody) return [];
  const decided = env.ctx.asserts({ kind: "behaviour", node: env.ctx.contract.document, about: "unreadable bodies" });
  if (!decided && !env.ctx.asserts({ kind: "schema", schema: op.requestBody.schema })) return [];
  const json = jsonBodyStatements(env);
  const variants: UnreadableVariant[] = [
    { name: "not-json", request: (valid, body) => withBody(valid, JSON.stringify(body).slice(0, -1), "application/json"), statements: json, exact: decided },
  ];
  if (op.requestBody.required && (decided || refusesEmptyObject(requestSchema(op, env.ctx.profile)))) {
    variants.push({ name: "empty", request: (valid) => withBody(valid, "", "application/json"), statements: json, exact: decided });
  }
  if (!decided) return variants;
  variants.push(
    { name: "not-sent-as-json", request: (valid, body) => withBody(valid, JSON.stringify(body), "text/plain"), statements: [...json, ...contentTypeStatements(env, op)], exact: true },
    {
      name: "over-size-limit",
      request: (valid, body) => {
        const text = JSON.stringify(body);
        return withBody(valid, text + " ".repeat(BODY_SIZE_LIMIT + 1 - Buffer.byteLength(text)), "application/json");
      },
      statements: [],
      exact: true,
    },
  );
  return variants;
}

/**
 * A curl command line for an unreadable request: as `reproduce` gives it, but a body padded
 * past the size limit is written as its JSON followed by the padding's length, piped in.
 */
export function reproduceUnreadable(env: DerivedEnv, request: PlannedRequest): string {
  const body = request.body ?? "";
  const json = body.trimEnd();
  if (body.length <= BODY_SIZE_LIMIT || json.length === body.length) return env.reproduce(request, "primary");
  const padding = body.length - json.length;
  const line = env.reproduce({ ...request, body: "@-" }, "primary").replace(`--data '@-'`, "--data-binary @-");
  return `{ printf '%s' '${json.replace(/'/g, `'\\''`)}'; head -c ${padding} /dev/zero | tr '\\0' ' '; } | ${line}`;
}
