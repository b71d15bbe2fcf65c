/**
 * Finding the operation a request reached, by method and concrete path. Literal segments win
 * over template parameters (`/pix/query` is not `/pix/{pixId}`), as in OpenAPI path matching.
 */
import type { ContractOperation } from "./operations.ts";

/** The operation a request reached, with its decoded path parameters. */
export type OperationMatch = ContractOperation & { pathParams: Record<string, string> };

interface CompiledPath {
  operation: ContractOperation;
  regex: RegExp;
  parameterNames: string[];
  literalSegments: number;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function compilePath(operation: ContractOperation): CompiledPath {
  const parameterNames: string[] = [];
  let literalSegments = 0;
  const pattern = operation.path
    .split("/")
    .map((segment) => {
      const match = /^\{([^}]+)\}$/.exec(segment);
      if (match) {
        parameterNames.push(match[1]);
        return "([^/]+)";
      }
      if (segment !== "") literalSegments += 1;
      return escapeRegex(segment);
    })
    .join("/");
  return { operation, regex: new RegExp(`^${pattern}$`), parameterNames, literalSegments };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The path of a request URL (absolute or not), without its query. */
export function pathOfUrl(url: string): string {
  const withoutOrigin = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? new URL(url).pathname : url;
  const query = withoutOrigin.search(/[?#]/);
  return query === -1 ? withoutOrigin : withoutOrigin.slice(0, query);
}

/** Operations indexed for matching by method and concrete path. */
export class OperationIndex {
  readonly operations: readonly ContractOperation[];
  private readonly compiled: CompiledPath[];

  constructor(operations: readonly ContractOperation[]) {
    this.operations = operations;
    this.compiled = operations.map(compilePath).sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** The operation for `method` and `path` (path only, no query), or null. */
  match(method: string, path: string): OperationMatch | null {
    const upper = method.toUpperCase();
    for (const candidate of this.compiled) {
      if (candidate.operation.method !== upper) continue;
      const found = candidate.regex.exec(path);
      if (!found) continue;
      const pathParams: Record<string, string> = {};
      candidate.parameterNames.forEach((name, index) => {
        pathParams[name] = safeDecode(found[index + 1]);
      });
      // pathParams first: V8 copies the operation's members in one step then, where a member
      // added after them (the literal's other order) costs several times the whole copy.
      return { pathParams, ...candidate.operation };
    }
    return null;
  }

  /** Methods the contract documents for a concrete path (empty when the path is unknown). */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const candidate of this.compiled) if (candidate.regex.test(path)) methods.add(candidate.operation.method);
    return [...methods];
  }

  byOperationId(operationId: string): ContractOperation | undefined {
    return this.operations.find((o) => o.operationId === operationId);
  }
}
