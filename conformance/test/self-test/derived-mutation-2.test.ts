/** The generic checks against broken servers (derived-mutation-suite.ts), part 2 of 2. */
import { derivedMutationSuite } from "./derived-mutation-suite.ts";

derivedMutationSuite(2, 2);
