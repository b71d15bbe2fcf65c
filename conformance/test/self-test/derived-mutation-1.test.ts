/** The generic checks against broken servers (derived-mutation-suite.ts), part 1 of 2. */
import { derivedMutationSuite } from "./derived-mutation-suite.ts";

derivedMutationSuite(1, 2);
