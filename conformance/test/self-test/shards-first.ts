/**
 * The self-test's file order: vitest starts the files whose duration it does not know yet
 * (a fresh clone, as in CI) largest first, which would start the shard files last (a few lines
 * each, `...-N.test.ts`, but each a share of the longest lists of broken servers) and leave one
 * worker running them alone at the end. Shards go first; the rest keep vitest's order.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

const SHARD = /-\d+\.test\.ts$/;

export class ShardsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => SHARD.test(f.moduleId)), ...sorted.filter((f) => !SHARD.test(f.moduleId))];
  }
}
