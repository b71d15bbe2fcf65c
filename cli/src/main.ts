/**
 * `payment-collection`: one command for the products of the Payment Collection API contract.
 * Each subcommand lives in the package that owns it; this module only dispatches, so that
 * `--help` and `--version` behave the same everywhere and asking for help starts nothing.
 */
import { didYouMean, refuse } from "@payment-collection/contract/command/command-line.ts";
import { versionLine } from "./versions.ts";

interface Subcommand {
  summary: string;
  /** Loaded only when chosen: `--help` of one subcommand never loads another. */
  run(argv: string[]): Promise<number>;
}

const SUBCOMMANDS: Record<string, Subcommand> = {
  conformance: {
    summary: "run the conformance suites against the servers a target file names",
    run: async (argv) => (await import("@payment-collection/conformance/cli.ts")).conformanceCommand(argv),
  },
  mock: {
    summary: "serve both families with Prism from the bundled OpenAPI documents",
    run: async (argv) => (await import("@payment-collection/conformance/mock/serve.ts")).mockCommand(argv),
  },
  verify: {
    summary: "verify DIR: check a conformance bundle offline (signature, digests, the verdicts judged again)",
    run: async (argv) => (await import("@payment-collection/conformance/bundle/verify-cli.ts")).verifyCommand(argv),
  },
  proxy: {
    summary: "a validating proxy: forwards traffic unchanged, checks every exchange against the contract",
    run: async (argv) => (await import("@payment-collection/conformance/traffic/traffic-cli.ts")).proxyCommand(argv),
  },
  traffic: {
    summary: "traffic check FILE.har: check recorded exchanges (HAR 1.2) against the contract",
    run: async (argv) => (await import("@payment-collection/conformance/traffic/traffic-cli.ts")).trafficCommand(argv),
  },
  sandbox: {
    summary: "start the stateful sandbox of both families (SQLite, or PostgreSQL shared by instances)",
    run: async (argv) => (await import("./sandbox-process.ts")).runSandboxProcess(argv),
  },
  portal: {
    summary: "serve the docs portal on localhost next to a sandbox, each reference with a console",
    run: async (argv) => (await import("@payment-collection/portal/portal-command.ts")).portalCommand(argv),
  },
  contract: {
    summary: "where the bundled OpenAPI documents are; validate a document; classify contract changes",
    run: async (argv) => (await import("@payment-collection/contract/command/contract-command.ts")).contractCommand(argv),
  },
};

export const USAGE = `usage: payment-collection <command> [options]

${Object.entries(SUBCOMMANDS)
  .map(([name, command]) => `  ${name.padEnd(12)} ${command.summary}`)
  .join("\n")}

  payment-collection <command> --help   options of a command
  payment-collection --version          versions of the CLI and the products it runs

Exit codes: 0 success; 1 a check failed (conformance, contract, proxy, traffic), a bundle tampered with or
whose verdicts disagree with its exchanges (verify); 2 bad input (options, target file, unreachable server,
refused key, unreadable bundle); 3 and 4 sandbox store errors (see sandbox --help).`;

/** Arguments before a `--`: only those are options of this command. */
function options(argv: string[]): string[] {
  const end = argv.indexOf("--");
  return end === -1 ? argv : argv.slice(0, end);
}

/** Runs the command line (without `node` and the script) and resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const names = Object.keys(SUBCOMMANDS);
  if (name === undefined) return refuse("", `a command is required: ${names.join(", ")} (payment-collection --help says what each does)`);
  if (name === "--help" || name === "-h" || name === "help") {
    console.log(USAGE);
    return 0;
  }
  if (name === "--version" || name === "-v") {
    console.log(versionLine());
    return 0;
  }
  const subcommand = SUBCOMMANDS[name];
  if (!subcommand && name.startsWith("-")) return refuse("", `unknown option ${name}; give a command first: payment-collection <command> ${name} (payment-collection --help lists the commands)`);
  if (!subcommand) return refuse("", `unknown command ${JSON.stringify(name)}${didYouMean(name, names) || `; the commands are ${names.join(", ")} (payment-collection --help says what each does)`}`);
  // --version wins over everything else of a subcommand, and starts nothing.
  if (options(rest).includes("--version")) {
    console.log(versionLine());
    return 0;
  }
  return subcommand.run(rest);
}
