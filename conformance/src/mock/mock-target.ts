/**
 * The target of a run against the Prism mock. Prism only checks that a key is present, so the
 * keys are placeholders in each family's documented format; ids come from the contract's
 * examples, which Prism serves.
 */
import type { FamilyId } from "@payment-collection/contract/model/index.ts";
import { parseTarget, type Target } from "../core/target.ts";

export function mockTarget(urls: Record<FamilyId, string>): Target {
  return parseTarget(
    {
      mock: "prism",
      familyA: {
        baseUrl: urls["family-a"],
        environment: "live",
        keys: { primary: "sk_live_mock_primary", secondAccount: "sk_live_mock_second", noMerchantRead: "sk_live_mock_noscope", testKey: "sk_test_mock" },
      },
      familyB: {
        baseUrl: urls["family-b"],
        keys: { primary: "pk_test_mock_primary", secondAccount: "pk_test_mock_second" },
      },
    },
    "the Prism mock of the contract",
  );
}
