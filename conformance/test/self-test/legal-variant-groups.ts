/**
 * Legal variants composed into one server, so that one seed run shows several of them passing.
 * A composed server is a proxy whose handler is the members' handlers one inside the other (the
 * first member outermost, the sandbox innermost): the same as each member's own proxy in front
 * of the next, without the extra hops. It is itself a faithful server that decided differently
 * at every point where one of its members did, provided no two members touch the same element.
 *
 * Grouping rule (`conflicts`, `composeGroups`): two variants share a composed server only when
 * they need the same run (plan, exhaust stage) and none of their sites conflict. A site is where
 * a variant acts: an operation's request, a member or header of one documented response, a
 * member wherever a record carries it (a server giving the client's value back), a whole
 * response (its status, body, media type), or a whole operation (a variant that answers some
 * of its requests itself, a behaviour, a webhook). Sites come from the variant's markings
 * (`sitesOf`), or from the variant itself when its handler reaches further (`LegalVariant.sites`).
 * Two sites conflict on the same operation (or any, `*`) of a family when either is the whole
 * operation, when both are its request, or when both are the same response (status) and either
 * is the whole response or their members are the same or one holds the other (a member wherever
 * a record carries it: any body path through its name).
 *
 * The rule is checked at run time too (`startComposedVariants`): every exchange records what
 * each member changed in it (the request, the status, a header, a body member; or that it
 * answered itself), and two members that changed the same thing, anything where one answered
 * itself, or anything in a reply whose status one changed, make the composed run not count:
 * its members then run alone.
 */
import { isDeepStrictEqual } from "node:util";
import { isObject, type FamilyId } from "@payment-collection/contract/model/index.ts";
import { startProxy, type Exchange, type Forward, type Reply } from "./mutants.ts";
import type { DerivedKeys } from "./derived-faults.ts";
import { FAMILIES, operationAt, parseJson, type LegalVariant, type Marking, type Site } from "./legal-variants.ts";

/** The sites of markings: where a variant that changes the choice at each of them acts. */
export function sitesOf(markings: Marking[]): Site[] {
  return markings.map((m): Site => {
    const at = { family: m.family, operation: m.operationId === "(document)" ? "*" : m.operationId };
    switch (m.place) {
      case "request":
      case "parameter":
        return { ...at, side: "request" };
      case "response":
        return { ...at, side: "response", status: m.status, part: `body:${m.path.join(".")}` };
      case "header":
        return { ...at, side: "response", status: m.status, part: `header:${m.name!.toLowerCase()}` };
      case "responses":
        return { ...at, side: "response", status: m.status, part: "*" };
      default:
        return { ...at, side: "operation" };
    }
  });
}

/** A variant's sites: its own list, else its markings' (its requests owned whole when it answers some itself). */
export function variantSites(v: LegalVariant): Site[] {
  const own = sitesOf(v.markings).map((s): Site => (v.answersItself && s.side === "request" ? { ...s, side: "operation" } : s));
  return v.sites ? v.sites(own, v.markings) : own;
}

/** Whether one dotted member path is the other or holds it. */
const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`) || a === "" || b === "";

/** Whether two sites conflict (see the module comment). */
export function conflicts(a: Site, b: Site): boolean {
  if (a.family !== b.family) return false;
  if (a.operation !== b.operation && a.operation !== "*" && b.operation !== "*") return false;
  if (a.side === "operation" || b.side === "operation") return true;
  if (a.side !== b.side) return false;
  if (a.side === "request") return true;
  if (a.status !== b.status && a.status !== "*" && b.status !== "*") return false;
  if (a.part === "*" || b.part === "*") return true;
  const [kindA, pathA] = splitPart(a.part!);
  const [kindB, pathB] = splitPart(b.part!);
  // A member wherever a record carries it: any body path through that name.
  if (kindA === "body-member" && kindB === "body") return pathB === "" || pathB.split(".").includes(pathA);
  if (kindB === "body-member" && kindA === "body") return pathA === "" || pathA.split(".").includes(pathB);
  return kindA === kindB && related(pathA, pathB);
}

const splitPart = (part: string): [string, string] => {
  const at = part.indexOf(":");
  return [part.slice(0, at), part.slice(at + 1)];
};

/** What a variant's run needs besides its server (two variants share a run only when these agree). */
export type RunNeeds = (v: LegalVariant) => string;

/**
 * The variants in groups that may share a composed server, in their order: each joins the first
 * group whose members need the same run and have no site in conflict with its own.
 */
export function composeGroups(variants: LegalVariant[], needs: RunNeeds): LegalVariant[][] {
  const groups: LegalVariant[][] = [];
  for (const v of variants) {
    const mine = variantSites(v);
    const fits = (group: LegalVariant[]) =>
      needs(group[0]!) === needs(v) && group.every((other) => variantSites(other).every((s) => mine.every((t) => !conflicts(s, t))));
    const group = groups.find(fits);
    if (group) group.push(v);
    else groups.push([v]);
  }
  return groups;
}

// The run-time check: what each member changed in each exchange.

/** Dotted paths where two JSON values differ ("" for the whole value). */
function jsonChanges(before: unknown, after: unknown, path = ""): string[] {
  if (isDeepStrictEqual(before, after)) return [];
  const join = (key: string | number) => (path === "" ? String(key) : `${path}.${key}`);
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) return before.flatMap((item, i) => jsonChanges(item, after[i], join(i)));
  if (isObject(before) && isObject(after) && !Array.isArray(before) && !Array.isArray(after)) {
    return [...new Set([...Object.keys(before), ...Object.keys(after)])].flatMap((key) => jsonChanges(before[key], after[key], join(key)));
  }
  return [path];
}

function bodyChanges(prefix: string, before: string, after: string): string[] {
  if (before === after) return [];
  const a = parseJson(before);
  const b = parseJson(after);
  return a === undefined || b === undefined ? [`${prefix}:`] : jsonChanges(a, b).map((p) => `${prefix}:${p}`);
}

function headerChanges(prefix: string, before: Record<string, string>, after: Record<string, string>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((name) => before[name] !== after[name]).map((name) => `${prefix}:${name}`);
}

/** What a member changed in one exchange, as atoms (`answered` when it did not forward it exactly once). */
function changesOf(received: Exchange, sent: Exchange[], got: Reply | undefined, answered: Reply): string[] {
  if (sent.length !== 1 || !got) return ["answered"];
  const request = sent[0]!;
  return [
    ...(request.method !== received.method || request.path !== received.path ? ["request-line"] : []),
    ...(request.search !== received.search ? ["request-query"] : []),
    ...headerChanges("request-header", received.headers, request.headers),
    ...bodyChanges("request-body", received.body, request.body),
    ...(got.status !== answered.status ? ["status"] : []),
    ...headerChanges("header", got.headers, answered.headers),
    ...bodyChanges("body", got.body, answered.body),
  ];
}

const REPLY_KINDS = ["status", "header", "body"];

/**
 * Whether two members' changes to one exchange overlap: the same thing changed twice, anything
 * where one answered itself, or anything in a reply whose status one of them changed (another
 * response then).
 */
function overlap(a: string, b: string): boolean {
  if (a === "answered" || b === "answered") return true;
  const [kindA, pathA] = a.includes(":") ? splitPart(a) : [a, ""];
  const [kindB, pathB] = b.includes(":") ? splitPart(b) : [b, ""];
  if ((kindA === "status" && REPLY_KINDS.includes(kindB)) || (kindB === "status" && REPLY_KINDS.includes(kindA))) return true;
  return kindA === kindB && related(pathA, pathB);
}

export interface ComposedServer {
  url: string;
  close(): Promise<void>;
  /** Exchanges where two members changed the same thing: the composed run does not count. */
  overlaps: string[];
}

/** A proxy in front of `upstream` that is every member at once, recording overlapping changes. */
export async function startComposedVariants(upstream: string, members: LegalVariant[], keys: DerivedKeys): Promise<ComposedServer> {
  const companions = await Promise.all(members.map((v) => v.companion?.()));
  const overlaps: string[] = [];
  const proxy = await startProxy(upstream, async (request, forward) => {
    const changes: string[][] = members.map(() => []);
    const through = (i: number): Forward => {
      if (i === members.length) return forward;
      return async (received) => {
        const sent: Exchange[] = [];
        let got: Reply | undefined;
        const answered = await members[i]!.handle(received, async (next) => {
          sent.push(next);
          got = await through(i + 1)(next);
          return got;
        }, keys, companions[i]?.url);
        changes[i] = changesOf(received, sent, got, answered);
        return answered;
      };
    };
    const reply = await through(0)(request);
    // A member that answered itself kept the request from the members inside it: none may act there.
    const at = operationAt(request);
    changes.forEach((mine, i) => {
      if (!mine.includes("answered")) return;
      for (const [j, other] of members.entries()) {
        if (j > i && variantSites(other).some((s) => s.family === at.family && (s.operation === at.operation || s.operation === "*"))) overlaps.push(`${members[i]!.name} answered ${request.method} ${request.path} itself, where ${other.name} acts`);
      }
    });
    for (let i = 0; i < members.length; i += 1) {
      for (let j = i + 1; j < members.length; j += 1) {
        const both = changes[i]!.flatMap((a) => changes[j]!.filter((b) => overlap(a, b)).map((b) => (a === b ? a : `${a}/${b}`)));
        if (both.length > 0) overlaps.push(`${members[i]!.name} and ${members[j]!.name} both change ${request.method} ${request.path} (${[...new Set(both)].join(", ")})`);
      }
    }
    return reply;
  });
  return {
    url: proxy.url,
    overlaps,
    close: async () => {
      await proxy.close();
      await Promise.all(companions.map((c) => c?.close()));
    },
  };
}

/** The families a group's run covers, in the usual order. */
export const familiesOfGroup = (members: LegalVariant[]): FamilyId[] => FAMILIES.filter((f) => members.some((v) => v.families.includes(f)));
