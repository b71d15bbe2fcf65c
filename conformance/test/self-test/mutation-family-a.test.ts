/** Family A's suite against servers broken in one way (see mutation.ts). */
import { describe } from "vitest";
import { mutationSuite } from "./mutation.ts";

describe("the family A suite against servers broken in one way", () => mutationSuite("family-a"));
