/**
 * `payment-collection sandbox` runs the sandbox in a child Node process: the sandbox needs Node
 * options of its own (SANDBOX_NODE_FLAGS, a larger young generation) that only a new process
 * can take. Signals reach the child; its exit code becomes the command's.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { refuse } from "@payment-collection/contract/command/command-line.ts";

/** Where the sandbox's command module is, or undefined when the optional package is not installed. */
function sandboxEntry(): string | undefined {
  try {
    return fileURLToPath(import.meta.resolve("@payment-collection/sandbox/cli.ts"));
  } catch {
    return undefined;
  }
}

/**
 * Installed, the sandbox is compiled JavaScript and the child needs no loader. In this
 * repository's checkout it is TypeScript: the child takes tsx (by URL: the working folder may
 * not have it) and the repository's tsconfig, which maps the packages' specifiers to sources.
 */
function sourceLoader(entry: string): string[] {
  return entry.endsWith(".ts") ? ["--import", import.meta.resolve("tsx")] : [];
}

function sourceEnv(entry: string): NodeJS.ProcessEnv {
  return entry.endsWith(".ts") ? { ...process.env, TSX_TSCONFIG_PATH: fileURLToPath(new URL("../../tsconfig.json", import.meta.url)) } : process.env;
}

export async function runSandboxProcess(argv: string[]): Promise<number> {
  const entry = sandboxEntry();
  if (!entry) {
    return refuse("sandbox", "the @payment-collection/sandbox package is not installed (it is optional: its SQLite binding may have failed to build); install it with `npm install @payment-collection/sandbox`");
  }
  // Help and bad input are answered here, before any process starts.
  const { sandboxOptions } = (await import("@payment-collection/sandbox/cli.ts")) as { sandboxOptions(argv: string[]): unknown };
  const checked = sandboxOptions(argv);
  if (typeof checked === "number") return checked;
  const { SANDBOX_NODE_FLAGS } = (await import("@payment-collection/sandbox/node-flags.ts")) as { SANDBOX_NODE_FLAGS: readonly string[] };
  const child = spawn(process.execPath, [...SANDBOX_NODE_FLAGS, ...sourceLoader(entry), entry, ...argv], { stdio: "inherit", env: sourceEnv(entry) });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward("SIGINT");
  const onTerm = forward("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  return new Promise<number>((done) => {
    child.on("exit", (code, signal) => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      done(code ?? (signal ? 128 + (signal === "SIGINT" ? 2 : 15) : 1));
    });
    child.on("error", (error) => {
      done(refuse("sandbox", `could not start: ${error.message}`, 1));
    });
  });
}
