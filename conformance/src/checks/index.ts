/** The response checks of both families, by family letter. */
import type { FamilyLetter } from "@payment-collection/contract/model/index.ts";
import { FAMILY_A_CHECKS } from "./family-a/index.ts";
import { FAMILY_B_CHECKS } from "./family-b/index.ts";
import type { ResponseCheck } from "./response-check.ts";

export const FAMILY_CHECKS: Record<FamilyLetter, ResponseCheck[]> = { a: FAMILY_A_CHECKS, b: FAMILY_B_CHECKS };
