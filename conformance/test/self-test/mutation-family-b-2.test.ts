/** Family B's suite against servers broken in one way (see mutation.ts), part 2 of 3. */
import { describe } from "vitest";
import { mutationSuite } from "./mutation.ts";

describe("the family B suite against servers broken in one way (part 2 of 3)", () => mutationSuite("family-b", 2, 3));
