/** Family B's suite against servers broken in one way (see mutation.ts). */
import { describe } from "vitest";
import { mutationSuite } from "./mutation.ts";

describe("the family B suite against servers broken in one way", () => mutationSuite("family-b"));
