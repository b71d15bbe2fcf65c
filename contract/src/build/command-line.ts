/**
 * The command line of the contract's commands (build, drift check, lint, gate): `--help`/`-h`
 * prints the usage and does no work; an unknown or malformed option prints one line and the
 * usage and exits 2, never a stack trace.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;
/** What parseArgs returns for these options; named so that the published declarations can say it. */
type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O & { help: { type: "boolean"; short: string } }; allowPositionals: boolean; strict: true }>>;

export function commandLine<O extends Options>(usage: string, options: O, allowPositionals = false): Parsed<O> {
  try {
    const parsed = parseArgs({ args: process.argv.slice(2), options: { ...options, help: { type: "boolean", short: "h" } }, allowPositionals, strict: true });
    if ((parsed.values as { help?: boolean }).help) {
      console.log(usage);
      process.exit(0);
    }
    return parsed;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    process.exit(2);
  }
}
