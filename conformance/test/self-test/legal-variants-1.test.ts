/** Faithful servers that decided differently, generated from the markings (legal-variant-suite.ts), part 1 of 2. */
import { legalVariantSuite } from "./legal-variant-suite.ts";

legalVariantSuite(1, 2);
