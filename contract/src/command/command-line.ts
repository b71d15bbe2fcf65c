/**
 * The command line of every `payment-collection` command: options read with node:util's
 * parseArgs, and bad input said in one line of one style, naming the command and what to do:
 *
 *   payment-collection conformance: unknown option --targte; did you mean --target?
 *   payment-collection mock: --port-family-a must be a port number from 0 to 65535, not -5
 *
 * It lives in the contract package because every package with a command (conformance,
 * sandbox, portal, cli) stands on this one and declares it; none of them imports another for it.
 */
import { existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { closestName } from "./did-you-mean.ts";

export type OptionSpecs = NonNullable<ParseArgsConfig["options"]>;

/** Bad input: the command prints `refusal(command, message)` and exits 2. */
export class UsageError extends Error {}

const PROGRAM = "payment-collection";

/** The one line of a refusal: `payment-collection <command>: <message>`. */
export function refusal(command: string, message: string): string {
  return `${PROGRAM}${command ? ` ${command}` : ""}: ${message}`;
}

/** Prints the refusal on stderr; returns the exit code (2, bad input, unless told otherwise). */
export function refuse(command: string, message: string, code = 2): number {
  console.error(refusal(command, message));
  return code;
}

/** Where the options of a command are listed. */
export function helpHint(command: string): string {
  return `${PROGRAM}${command ? ` ${command}` : ""} --help lists the options`;
}

/** What parseArgs returns for these options (named, so that the published declarations can say it). */
export type CommandLine<O extends OptionSpecs> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: boolean; strict: true }>>;

/**
 * `--port -5`: parseArgs takes `-5` for an option and refuses the value as ambiguous. A value
 * that reads as a negative number is the option's value; its own check then says what is wrong.
 */
function joinNegativeNumbers(argv: readonly string[], options: OptionSpecs): string[] {
  const takesValue = (token: string) => {
    if (token.startsWith("--")) return options[token.slice(2)]?.type === "string";
    if (/^-[^-]$/.test(token)) return Object.values(options).some((o) => o.short === token.slice(1) && o.type === "string");
    return false;
  };
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--") return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    if (next !== undefined && /^-\d/.test(next) && takesValue(token)) {
      out.push(`${token}=${next}`.replace(/^(-[^-])=/, "$1"));
      i++;
    } else out.push(token);
  }
  return out;
}

/** An option as the user typed it, from parseArgs' message (`Unknown option '--targte'`). */
const quotedIn = (message: string) => /'([^']+)'/.exec(message)?.[1] ?? "";

/** parseArgs' error, said in the commands' style. */
function explain(command: string, error: unknown, options: OptionSpecs): string {
  const { code, message } = error as { code?: string; message: string };
  const hint = helpHint(command);
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const given = quotedIn(message);
    const long = given.replace(/^-+/, "").split("=")[0]!;
    const known = Object.keys(options);
    const guess = given.startsWith("--") ? closestName(long, known) : undefined;
    return guess ? `unknown option --${long}; did you mean --${guess}?` : `unknown option ${given}; ${hint}`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const option = quotedIn(message).replace(/ <value>$/, "");
    if (/argument missing/.test(message)) return `${option} needs a value; ${hint}`;
    if (/does not take an argument/.test(message)) return `${option} takes no value; ${hint}`;
    if (/ambiguous/.test(message)) return `${option} needs a value, and what follows it is an option; write ${option}=VALUE for a value that starts with "-"`;
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return `unexpected argument "${quotedIn(message)}"; ${hint}`;
  return `${message.split("\n")[0]}; ${hint}`;
}

/** A parser's message on one line: its first, without the colon that introduces an excerpt (the yaml package's). */
export function firstLine(message: string): string {
  return message.split("\n")[0]!.replace(/:\s*$/, "");
}

/**
 * Reads the options of a command (strict: an unknown option is bad input). Throws a UsageError
 * whose message is ready for `refusal(command, ...)`; `-h`/`--help` is the caller's to declare.
 */
export function readCommandLine<O extends OptionSpecs>(command: string, argv: readonly string[], options: O, { positionals = false } = {}): CommandLine<O> {
  try {
    return parseArgs({ args: joinNegativeNumbers(argv, options), options, strict: true, allowPositionals: positionals }) as CommandLine<O>;
  } catch (error) {
    throw new UsageError(explain(command, error, options));
  }
}

/** The suggestion for an unknown word among known ones (a subcommand, a command), or "". */
export function didYouMean(word: string, known: readonly string[]): string {
  const guess = closestName(word, known);
  return guess ? `; did you mean ${guess}?` : "";
}

/** A file the command reads: it must exist and be a file. */
export function inputFile(path: string, label: string, example = "FILE"): string {
  if (!existsSync(path)) throw new UsageError(`${label} ${path}: no such file`);
  if (statSync(path).isDirectory()) throw new UsageError(`${label} ${path} is a folder; give a file in it (${label} ${path.replace(/\/+$/, "")}/${example})`);
  return path;
}

/** A file the command writes: not a folder, and not under a file (its folders are created). */
export function outputFile(path: string, label: string, example: string): string {
  if (existsSync(path) && statSync(path).isDirectory()) throw new UsageError(`${label} ${path} is a folder; give a file path (${label} ${path.replace(/\/+$/, "")}/${example})`);
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(dir)) {
      if (!statSync(dir).isDirectory()) throw new UsageError(`${label} ${path}: ${dir} is a file, not a folder`);
      break;
    }
  }
  return path;
}

/** A port number from 0 to 65535 (0: any free port). */
export function portNumber(text: string, label: string): number {
  const port = Number(text);
  if (text.trim() === "" || !Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`${label} must be a port number from 0 to 65535 (0: any free port), not ${text}`);
  return port;
}

/** The refusal of a port someone else listens on. */
export function portInUse(host: string, port: number, flag: string): string {
  return `port ${port} on ${host} is in use; pick another with ${flag} (0: any free port)`;
}
