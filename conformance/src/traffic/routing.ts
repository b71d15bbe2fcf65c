/**
 * Which family and operation an exchange belongs to. Each family has its base URLs (given, or
 * the documents' server URLs); within a family the request's path, relative to the base, is
 * matched against the contract's operations. A server may put a prefix before the PIX and
 * transaction paths (the document does not show it), so a path that matches nothing is tried
 * again without its leading segments.
 */
import { FAMILY_IDS, OperationIndex, isObject, loadFamilyContract, pathDecodes, type FamilyContract, type FamilyId, type OperationMatch } from "@payment-collection/contract/model/index.ts";

export interface FamilyRoute {
  family: FamilyId;
  contract: FamilyContract;
  index: OperationIndex;
  /** Origins + path bases that belong to the family (`http://host:port/base`), without a trailing slash. */
  baseUrls: string[];
}

export interface Routed {
  route: FamilyRoute;
  /** Null: the path or method is not one the contract defines. */
  op: OperationMatch | null;
  /** The path the contract's templates were matched against (no base, no prefix). */
  path: string;
}

const indexes = new WeakMap<FamilyContract, OperationIndex>();

export function indexOf(contract: FamilyContract): OperationIndex {
  let index = indexes.get(contract);
  if (!index) indexes.set(contract, (index = new OperationIndex(contract.operations)));
  return index;
}

/** The server URLs a family's document lists (variables at their defaults). */
export function documentServerUrls(contract: FamilyContract): string[] {
  const servers = Array.isArray(contract.document.servers) ? contract.document.servers.filter(isObject) : [];
  return servers.map((server) => {
    const variables = isObject(server.variables) ? server.variables : {};
    return String(server.url).replace(/\{([^}]+)\}/g, (_, name: string) => {
      const variable = variables[name];
      return isObject(variable) && variable.default !== undefined ? String(variable.default) : "";
    });
  }).filter((url) => /^https?:\/\//.test(url));
}

export function familyRoutes(baseUrls: Partial<Record<FamilyId, string[]>>): FamilyRoute[] {
  return FAMILY_IDS.map((family) => {
    const contract = loadFamilyContract(family);
    const given = baseUrls[family];
    return { family, contract, index: indexOf(contract), baseUrls: (given && given.length > 0 ? given : documentServerUrls(contract)).map((u) => u.replace(/\/+$/, "")) };
  });
}

/** The operation for a method and a path relative to the family's base, prefixes tried off. */
export function matchPath(route: FamilyRoute, method: string, path: string): { op: OperationMatch | null; path: string } {
  // A path that does not decode is no operation's: a server refuses it before any is found (D50).
  if (!pathDecodes(path)) return { op: null, path };
  const segments = path.split("/");
  for (let drop = 0; drop < segments.length - 1; drop++) {
    const candidate = drop === 0 ? path : `/${segments.slice(drop + 1).join("/")}`;
    const op = route.index.match(method, candidate);
    if (op) return { op, path: candidate };
  }
  return { op: null, path };
}

/** The route of an absolute URL by base URL (longest base first); undefined: another host. */
export function routeByBaseUrl(routes: FamilyRoute[], method: string, url: string): Routed | undefined {
  const { origin, pathname } = new URL(url);
  let best: { route: FamilyRoute; base: string } | undefined;
  for (const route of routes) {
    for (const base of route.baseUrls) {
      const b = new URL(base);
      const basePath = b.pathname.replace(/\/+$/, "");
      if (b.origin !== origin || !(pathname === basePath || pathname.startsWith(`${basePath}/`))) continue;
      if (!best || basePath.length > best.base.length) best = { route, base: basePath };
    }
  }
  if (!best) return undefined;
  const relative = pathname.slice(best.base.length) || "/";
  // Both families may share one host (a sandbox): the one whose contract knows the path wins.
  const sameBase = routes.filter((r) => r.baseUrls.some((b) => new URL(b).origin === origin && new URL(b).pathname.replace(/\/+$/, "") === best!.base));
  for (const route of sameBase) {
    const found = matchPath(route, method, relative);
    if (found.op) return { route, ...found };
  }
  return { route: routeByFirstSegment(sameBase, relative) ?? best.route, op: null, path: relative };
}

/** For a path no family's contract knows: the family whose paths start with the same segment. */
export function routeByFirstSegment(routes: FamilyRoute[], path: string): FamilyRoute | undefined {
  const first = path.split("/")[1] ?? "";
  return routes.find((route) => route.contract.operations.some((op) => op.path.split("/")[1] === first));
}

/** For the proxy: the family of a request path on the proxy's one port (no base URL to go by). */
export function routeByPath(routes: FamilyRoute[], method: string, path: string): Routed {
  for (const route of routes) {
    const found = matchPath(route, method, path);
    if (found.op) return { route, ...found };
  }
  return { route: routeByFirstSegment(routes, path) ?? routes[0]!, op: null, path };
}
