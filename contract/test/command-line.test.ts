/**
 * The command line every `payment-collection` command reads its options with
 * (src/command/command-line.ts): parseArgs' refusals said in one line that names the command and
 * what to do, a value that reads as a negative number taken as the option's value, and the
 * closest option suggested for a misspelt one. (Each command's own lines: cli/test.)
 */
import { describe, expect, it } from "vitest";
import { readCommandLine, refusal, UsageError } from "../src/command/command-line.ts";

const OPTIONS = { port: { type: "string" }, target: { type: "string" }, quiet: { type: "boolean" }, help: { type: "boolean", short: "h" } } as const;

function refused(argv: string[]): string {
  try {
    readCommandLine("demo", argv, OPTIONS);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return refusal("demo", (error as Error).message);
  }
  throw new Error(`${argv.join(" ")} was accepted`);
}

describe("readCommandLine", () => {
  it("takes a negative number as the value of the option before it, for the option's own check to judge", () => {
    expect(readCommandLine("demo", ["--port", "-5", "--quiet"], OPTIONS).values).toEqual({ port: "-5", quiet: true });
    // After `--`, nothing is an option's value.
    expect(readCommandLine("demo", ["--", "--port", "-5"], OPTIONS, { positionals: true }).positionals).toEqual(["--port", "-5"]);
  });

  it("says each refusal of parseArgs in one line with what to do", () => {
    expect(refused(["--prot", "1"])).toBe("payment-collection demo: unknown option --prot; did you mean --port?");
    expect(refused(["--colour"])).toBe("payment-collection demo: unknown option --colour; payment-collection demo --help lists the options");
    expect(refused(["-x"])).toBe("payment-collection demo: unknown option -x; payment-collection demo --help lists the options");
    expect(refused(["--target"])).toBe("payment-collection demo: --target needs a value; payment-collection demo --help lists the options");
    expect(refused(["--target", "--quiet"])).toBe('payment-collection demo: --target needs a value, and what follows it is an option; write --target=VALUE for a value that starts with "-"');
    expect(refused(["--quiet=1"])).toBe("payment-collection demo: --quiet takes no value; payment-collection demo --help lists the options");
    expect(refused(["extra"])).toBe('payment-collection demo: unexpected argument "extra"; payment-collection demo --help lists the options');
  });
});
