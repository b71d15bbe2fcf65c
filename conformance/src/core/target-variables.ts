/**
 * `${NAME}` in the strings of a target file: replaced with the environment variable, so that
 * CI secrets stay out of files. A string naming an unset (or empty) variable is left as it is
 * and recorded, so that validation can tell a missing key (allowed) from a missing baseUrl
 * (an error) and name the variable.
 */

/** A member's place in the target document: member names and array indexes. */
export type MemberPath = Array<string | number>;

export interface UnsetVariable {
  path: MemberPath;
  variable: string;
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `familyA.keys.primary`, `familyB.fixtures.registeredBoletoIds[0]`; `(root)` for the document. */
export function formatPath(path: MemberPath): string {
  if (path.length === 0) return "(root)";
  return path.map((segment, i) => (typeof segment === "number" ? `[${segment}]` : i === 0 ? segment : `.${segment}`)).join("");
}

/** A copy of the document with every variable replaced; strings naming an unset one are kept and listed in `unset`. */
export function interpolate(value: unknown, env: NodeJS.ProcessEnv, unset: UnsetVariable[], path: MemberPath = []): unknown {
  if (typeof value === "string") {
    let missing: string | undefined;
    const replaced = value.replace(VARIABLE, (_, name: string) => {
      const found = env[name];
      if (found === undefined || found === "") missing ??= name;
      return found ?? "";
    });
    if (missing === undefined) return replaced;
    unset.push({ path, variable: missing });
    return value;
  }
  if (Array.isArray(value)) return value.map((item, i) => interpolate(item, env, unset, [...path, i]));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, env, unset, [...path, key])]));
  }
  return value;
}

/** Removes the members (and list items) at the given paths: an unset variable means the value is missing. */
export function removeMembers(document: unknown, paths: MemberPath[]): void {
  // Deepest and last first, so that removing a list item does not shift the ones still to remove.
  const index = (path: MemberPath) => (typeof path.at(-1) === "number" ? (path.at(-1) as number) : 0);
  const ordered = [...paths].sort((x, y) => y.length - x.length || index(y) - index(x));
  for (const path of ordered) {
    let parent: unknown = document;
    for (const segment of path.slice(0, -1)) parent = (parent as Record<string | number, unknown> | undefined)?.[segment];
    const last = path.at(-1);
    if (Array.isArray(parent) && typeof last === "number") parent.splice(last, 1);
    else if (typeof parent === "object" && parent !== null && last !== undefined) delete (parent as Record<string, unknown>)[last];
  }
}
