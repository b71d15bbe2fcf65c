/** The response checks of both families, by family. */
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import { FAMILY_A_CHECKS } from "./family-a/index.ts";
import { FAMILY_B_CHECKS } from "./family-b/index.ts";
import type { ResponseCheck } from "./response-check.ts";

export const FAMILY_CHECKS: Record<FamilyId, ResponseCheck[]> = { "family-a": FAMILY_A_CHECKS, "family-b": FAMILY_B_CHECKS };
