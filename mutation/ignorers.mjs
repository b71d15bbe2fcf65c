// Classes of mutants the mutation run leaves out, each with its reason (Stryker reports every
// ignored mutant with the reason returned here). Error codes, statuses and every member name
// stay mutated: only the human-readable texts of error bodies are left out.
import { PluginKind, declareValuePlugin } from "@stryker-mutator/api/plugin";

/**
 * The error constructors of the sandbox (sandbox/src/envelopes.ts, the controls' own) and the
 * index of their first human-readable argument: family A's `detail`, family B's `message` and
 * `details`. The contract types them as strings and pins none of their texts, so no client can
 * tell one text from another, or from an empty one.
 */
const MESSAGE_ARGUMENTS = { problem: 2, sdkError: 2, operationError: 3, commonError: 2, controlError: 2 };
/** Tables of such texts: the problem titles and the envelope-1 messages per common error. */
const MESSAGE_TABLES = new Set(["PROBLEM_TITLES", "COMMON_MESSAGE"]);

const REASON = "a human-readable text of an error body: the contract types it as a string and pins no text, so no client can observe a change";

function calleeName(call) {
  const callee = call.node.callee;
  if (callee.type === "Identifier") return callee.name;
  if (callee.type === "MemberExpression" && callee.property.type === "Identifier") return callee.property.name;
  return undefined;
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, "error-texts", {
    shouldIgnore(path) {
      const parent = path.parentPath;
      if (!parent) return undefined;
      if (parent.isCallExpression() && path.listKey === "arguments") {
        const first = MESSAGE_ARGUMENTS[calleeName(parent)];
        if (first !== undefined && path.key >= first) return REASON;
      }
      if (path.isObjectExpression() && parent.isVariableDeclarator() && parent.node.id.type === "Identifier" && MESSAGE_TABLES.has(parent.node.id.name)) return REASON;
      return undefined;
    },
  }),
];
