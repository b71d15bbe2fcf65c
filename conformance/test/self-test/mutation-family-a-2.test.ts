/** Family A's suite against servers broken in one way (see mutation.ts), part 2 of 3. */
import { describe } from "vitest";
import { mutationSuite } from "./mutation.ts";

describe("the family A suite against servers broken in one way (part 2 of 3)", () => mutationSuite("family-a", 2, 3));
