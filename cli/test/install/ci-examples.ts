/**
 * The CI examples of docs/cli.md, read from the page itself so that the test runs exactly
 * what readers copy: the `run` commands of the GitHub Actions workflow (steps that use an
 * action are the runner's business) and the `script` of the GitLab CI job.
 */
import { parse } from "yaml";

function yamlBlockAfter(markdown: string, heading: string): unknown {
  const at = markdown.indexOf(`### ${heading}`);
  if (at === -1) throw new Error(`docs/cli.md has no "### ${heading}" section`);
  const block = /```yaml\n([\s\S]*?)```/.exec(markdown.slice(at));
  if (!block) throw new Error(`docs/cli.md: no yaml block under "${heading}"`);
  return parse(block[1]!);
}

export function ciExamples(markdown: string): { github: string[]; gitlab: string[] } {
  const workflow = yamlBlockAfter(markdown, "GitHub Actions") as { jobs: Record<string, { steps: Array<{ run?: string }> }> };
  const job = Object.values(workflow.jobs)[0]!;
  const gitlab = yamlBlockAfter(markdown, "GitLab CI") as Record<string, { script: string[] }>;
  return {
    github: job.steps.flatMap((step) => (step.run === undefined ? [] : [step.run.trim()])),
    gitlab: Object.values(gitlab)[0]!.script.map((line) => line.trim()),
  };
}
