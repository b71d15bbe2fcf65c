/**
 * What every vitest configuration of this repository shares: the packages' own specifiers
 * (`@payment-collection/contract/model/index.ts`) resolve to their TypeScript sources through
 * the paths of the root tsconfig.json, not to the compiled dist/ their exports name; and the
 * Node processes the tests start with `--import tsx` read the same tsconfig wherever they run.
 */
import { fileURLToPath } from "node:url";

const TSCONFIG = fileURLToPath(new URL("../../tsconfig.json", import.meta.url));

export const sources = {
  resolve: { tsconfigPaths: true },
  env: { TSX_TSCONFIG_PATH: TSCONFIG },
} as const;
