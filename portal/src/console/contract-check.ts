/**
 * Checks one response the console received against the contract, in the browser, with the
 * conformance suites' own validation (conformance/src/core/validate.ts: status, headers,
 * media type, body schema through the contract model's ajv with the domain formats, so a BR
 * Code's CRC and a CPF's check digits are checked as the suites check them) and the
 * expectations computed at build time (console-data.ts). Each problem names what it breaks:
 * the statement ids of the document's word (a problem `seed` finds too) or the decision ids
 * (a problem only `full` finds).
 *
 * Bundled for the browser by bundle.ts; also runs in Node (the tests call it directly).
 */
import { responseProblems, type ObservedResponse } from "@payment-collection/conformance/core/validate.ts";
import { valuesAt } from "@payment-collection/conformance/core/statement-map.ts";
import { statusAccepted } from "@payment-collection/conformance/core/profiles/response-expectation.ts";
import type { Attribution, ConsoleOperation, ConsoleResponse } from "./console-data.ts";

export type { ObservedResponse };

export interface ConsoleProblem {
  /** What does not conform, as the suites word it. */
  text: string;
  /** `statement`: the document's word is broken; `decision`: a project decision is. */
  kind: "statement" | "decision";
  ids: string[];
}

export interface ConsoleCheck {
  /** The documented response the check used (`201`, `4XX`), or null when the status is not documented. */
  documented: string | null;
  problems: ConsoleProblem[];
}

/** The documented response of a status: the exact code, else its range (`4XX`), else `default`. */
export function documentedResponse(operation: ConsoleOperation, status: number): string | null {
  const keys = Object.keys(operation.responses);
  const exact = keys.find((key) => key === String(status));
  if (exact) return exact;
  const range = keys.find((key) => key.toUpperCase() === `${Math.floor(status / 100)}XX`);
  return range ?? (keys.includes("default") ? "default" : null);
}

/** `/data/items/0/id` (a JSON pointer from ajv) as the catalogue writes paths: `data.items[].id`. */
export function dottedPath(pointer: string): string {
  let path = "";
  for (const raw of pointer.split("/").slice(1)) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(segment)) path += "[]";
    else path += path === "" ? segment : `.${segment}`;
  }
  return path;
}

/** The body path a problem line of the validator is about, or null when it is not about the body. */
function bodyPathOf(text: string): string | null {
  const match = /^body: (\(root\)|\/\S*) (.*)$/.exec(text);
  if (!match) return null;
  const base = match[1] === "(root)" ? "" : dottedPath(match[1]!);
  const missing = /"missingProperty":"([^"]+)"/.exec(match[2]!);
  return missing ? (base ? `${base}.${missing[1]}` : missing[1]!) : base;
}

/** The attribution of the deepest path that is `path` or encloses it and names ids of the wanted kind. */
function nearest(bodyPaths: Record<string, Attribution>, path: string, kind: keyof Attribution): string[] {
  let best: { length: number; ids: string[] } | null = null;
  for (const [candidate, attribution] of Object.entries(bodyPaths)) {
    if (attribution[kind].length === 0) continue;
    const encloses = candidate === "" || path === candidate || path.startsWith(`${candidate}.`) || path.startsWith(`${candidate}[]`);
    if (encloses && (!best || candidate.length > best.length)) best = { length: candidate.length, ids: attribution[kind] };
  }
  return best?.ids ?? [];
}

function attribute(response: ConsoleResponse, text: string, kind: ConsoleProblem["kind"]): string[] {
  const wanted = kind === "statement" ? "statements" : "decisions";
  const header = /^header (\S+)/.exec(text);
  if (header) {
    const found = response.headers[header[1]!.toLowerCase()]?.[wanted] ?? [];
    if (found.length > 0) return found;
  }
  const path = bodyPathOf(text);
  if (path !== null) {
    const found = nearest(response.bodyPaths, path, wanted);
    if (found.length > 0) return found;
  }
  if (kind === "decision") return response.full.decisions;
  return response.statusStatements.length > 0 ? response.statusStatements : response.statements;
}

/** The problems of a response to `operation`; none when it conforms to the contract. */
export function checkResponse(operation: ConsoleOperation, observed: ObservedResponse): ConsoleCheck {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(observed.headers)) headers[name.toLowerCase()] = value;
  const response = { ...observed, headers };
  const documented = documentedResponse(operation, observed.status);
  if (documented === null) {
    // A decided status relaxes under seed to its class: then only a decision is broken.
    const relaxing = Object.values(operation.responses).find((candidate) => candidate.seed.statusRule.kind === "class" && statusAccepted(candidate.seed.statusRule, observed.status));
    const statusStatements = [...new Set(Object.values(operation.responses).flatMap((candidate) => candidate.statusStatements))];
    const text = `status ${observed.status} is not documented for ${operation.method} ${operation.path} (documented: ${Object.keys(operation.responses).join(", ")})`;
    return {
      documented,
      problems: [relaxing ? { text, kind: "decision", ids: relaxing.full.decisions } : { text, kind: "statement", ids: statusStatements }],
    };
  }
  const expected = operation.responses[documented]!;
  const seed = new Set(responseProblems(expected.seed, response));
  const problems: ConsoleProblem[] = responseProblems(expected.full, response).map((text) => {
    const kind = seed.has(text) ? "statement" : "decision";
    return { text, kind, ids: attribute(expected, text, kind) };
  });
  // Under seed a message may be worded otherwise (a relaxed status): keep what only seed found.
  for (const text of seed) {
    if (!problems.some((problem) => problem.text === text)) problems.push({ text, kind: "statement", ids: attribute(expected, text, "statement") });
  }
  if (observed.status >= 200 && observed.status < 300 && expected.absent.length > 0) {
    let body: unknown;
    try {
      body = JSON.parse(observed.body);
    } catch {
      body = undefined;
    }
    for (const member of expected.absent) {
      if (body !== undefined && valuesAt(body, member.path).length > 0) {
        problems.push({ text: `body: ${member.path} is present; the document says this response does not carry it`, kind: "statement", ids: [member.statement] });
      }
    }
  }
  return { documented, problems };
}
