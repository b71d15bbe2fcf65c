// Classes of mutants the mutation run leaves out, each with its reason (Stryker reports every
// ignored mutant with the reason returned here). Error codes, statuses and every member name
// stay mutated: only the human-readable texts of error bodies are left out.
import { PluginKind, declareValuePlugin } from "@stryker-mutator/api/plugin";

/**
 * The error constructors of the sandbox (sandbox/src/envelopes.ts, the controls' own) and the
 * index of their first human-readable argument: family A's `detail`, family B's `message` and
 * `details`; and `problemsOf` (sandbox/src/contract/operations.ts), whose location is joined
 * into the text of the error body's details, as a text-only problem's is (below). The contract types them as strings and pins none of their texts, so no client can
 * tell one text from another, or from an empty one.
 */
const MESSAGE_ARGUMENTS = { problem: 2, sdkError: 2, operationError: 3, commonError: 2, controlError: 2, problemsOf: 1 };
/** The names a function of the sandbox gives a parameter that carries such a text. */
const MESSAGE_PARAMETERS = new Set(["message", "details", "detail", "title"]);
/** Tables of such texts: the problem titles and the envelope-1 messages per common error. */
const MESSAGE_TABLES = new Set(["PROBLEM_TITLES", "COMMON_MESSAGE"]);

const REASON = "a human-readable text of an error body: the contract types it as a string and pins no text, so no client can observe a change";

/** The members of a validation problem (sandbox/src/contract/operations.ts) that only make the text of an error body's details. */
const PROBLEM_TEXT_MEMBERS = new Set(["location", "message"]);
const keyName = (property) => (property.key.type === "Identifier" ? property.key.name : property.key.type === "StringLiteral" ? property.key.value : undefined);
/** `{ location, message }`: a validation problem with nothing else (no ajv error a handler could read). */
const isTextOnlyProblem = (node) =>
  node.type === "ObjectExpression" && node.properties.length === 2 && node.properties.every((p) => p.type === "ObjectProperty" && PROBLEM_TEXT_MEMBERS.has(keyName(p)));

/** The parameter names of the function a call's callee is bound to in its own file, if it is one. */
function localParameters(call) {
  const callee = call.node.callee;
  if (callee.type !== "Identifier") return undefined;
  const binding = call.scope.getBinding(callee.name);
  if (!binding) return undefined;
  let fn = binding.path.node;
  if (fn.type === "VariableDeclarator") fn = fn.init;
  if (!fn || !["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"].includes(fn.type)) return undefined;
  return fn.params.map((param) => (param.type === "Identifier" ? param.name : undefined));
}

function isMessageArgument(call, index) {
  const callee = call.node.callee;
  const name = callee.type === "Identifier" ? callee.name : callee.type === "MemberExpression" && callee.property.type === "Identifier" ? callee.property.name : undefined;
  const first = MESSAGE_ARGUMENTS[name];
  if (first !== undefined) return index >= first;
  return MESSAGE_PARAMETERS.has(localParameters(call)?.[index]);
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, "error-texts", {
    shouldIgnore(path) {
      const parent = path.parentPath;
      if (!parent) return undefined;
      if (parent.isCallExpression() && path.listKey === "arguments" && isMessageArgument(parent, path.key)) return REASON;
      if (path.isObjectExpression() && parent.isVariableDeclarator() && parent.node.id.type === "Identifier" && MESSAGE_TABLES.has(parent.node.id.name)) return REASON;
      // A validation problem's location and message: joined into the text of the error body's details.
      if (isTextOnlyProblem(path.node)) return REASON;
      if (parent.isObjectProperty() && path.key === "value" && isTextOnlyProblem(parent.parent)) return REASON;
      // `{ ok: false, detail: "..." }`: a text in a member named as one, passed on to an error body.
      if (parent.isObjectProperty() && path.key === "value" && MESSAGE_PARAMETERS.has(keyName(parent.node)) && (path.isStringLiteral() || path.isTemplateLiteral())) return REASON;
      // `const detail = \`...\``: a text named as one, passed on to an error body.
      if (path.listKey === undefined && path.key === "init" && parent.isVariableDeclarator() && parent.node.id.type === "Identifier" && MESSAGE_PARAMETERS.has(parent.node.id.name)) return REASON;
      return undefined;
    },
  }),
];
